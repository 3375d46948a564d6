// exec-process-mcp seen by a LangChain agent: @langchain/mcp-adapters loads its tools into a createAgent agent
// (fakeModel), which starts a background job and is told of the job's exit by its next tool call.
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, type BaseMessage } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_BIN, serverEnv, testWorkspace, WAIT_LIMIT_MS } from "./helpers.js";

let workspace: ReturnType<typeof testWorkspace>;
let client: MultiServerMCPClient;
const notices: Array<{ text: string }> = [];

beforeAll(() => {
  workspace = testWorkspace();
  client = new MultiServerMCPClient({
    mcpServers: {
      shell: { transport: "stdio", command: process.execPath, args: [SERVER_BIN, "--cwd", workspace.cwd], env: serverEnv(), stderr: "ignore" },
    },
    onMessage: (log) => {
      if (log.logger === "exec-process") notices.push(log.data as { text: string });
    },
  });
});

afterAll(async () => {
  await client.close();
  workspace.remove();
});

/**
 * The text of a ToolMessage. The adapter (1.1.4) gives several text blocks as blocks, but one text block that comes
 * with structuredContent as that block merged with it, which LangChain turns into its JSON: the model reads that.
 */
function textOf(message: BaseMessage): string {
  const { content } = message;
  if (typeof content !== "string") return content.map((block) => ("text" in block ? String(block.text) : "")).join("\n");
  if (!content.startsWith('{"type":"text"')) return content;
  const block = JSON.parse(content) as { text: string; structuredContent?: { status?: string } };
  expect(block.structuredContent?.status).toMatch(/^(completed|failed|running)$/);
  return block.text;
}

async function noticeContaining(fragment: string): Promise<{ text: string }> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const found = notices.find((notice) => notice.text.includes(fragment));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no exit notification containing "${fragment}"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("@langchain/mcp-adapters", () => {
  it("loads exec and process with their schemas into LangChain tools", async () => {
    const tools = await client.getTools();
    expect(tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
  });

  it("gives a createAgent agent a background job whose exit it is told of on its next tool call, once", async () => {
    const tools = await client.getTools();
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo agent-build-done", background: true } }])
      .respond(new AIMessage("Started the build."))
      .respondWithTools([{ name: "exec", args: { command: "echo checking" } }])
      .respond(new AIMessage("The build is done."))
      .respondWithTools([{ name: "exec", args: { command: "echo again" } }])
      .respond(new AIMessage("Nothing new."));
    const agent = createAgent({ model, tools });

    const first = await agent.invoke({ messages: [new HumanMessage("Build it in the background.")] });
    const started = first.messages.filter(ToolMessage.isInstance);
    expect(started).toHaveLength(1);
    expect(textOf(started[0]!)).toMatch(/^Command still running \(session [a-z]+-[a-z]+, pid \d+\)/);
    const notice = await noticeContaining("agent-build-done");

    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("Is it done?")] });
    const told = second.messages.slice(first.messages.length).filter(ToolMessage.isInstance);
    expect(told.map(textOf)).toEqual([`System: ${notice.text}\nchecking`]);
    expect(notice.text).toMatch(/^Exec completed \([a-z-]{8}, code 0\) :: agent-build-done$/);

    const third = await agent.invoke({ messages: [...second.messages, new HumanMessage("Anything else?")] });
    expect(third.messages.slice(second.messages.length).filter(ToolMessage.isInstance).map(textOf)).toEqual(["again"]);
  });
});
