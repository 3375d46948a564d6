// The MCP server serves the tools from the engine and the tool specs, without LangChain (issue 36): what it offers
// and answers must stay exactly what the LangChain tools give. tools/list against the tools' names, descriptions and
// JSON schemas (as LangChain's toJsonSchema hands them to a model), and the same calls through both paths.
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { ToolMessage } from "@langchain/core/messages";
import type { StructuredTool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { createExecTools } from "../../src/index.js";
import { call, stdioServerTests, WAIT_LIMIT_MS } from "./helpers.js";

const { workspace, connect: server } = stdioServerTests();

/** Waits until `condition` resolves true, looking every 50 ms; fails naming `what` after WAIT_LIMIT_MS. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + WAIT_LIMIT_MS; !(await condition()); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > deadline) throw new Error(`Not within ${WAIT_LIMIT_MS} ms: ${what}`);
  }
}

/** A call's answer as both paths can give it: the text the model reads, the details, and whether it is an error. */
interface Answer { text: string; details: unknown; isError: boolean }

/** The LangChain tool's answer to a tool call: its ToolMessage, or the text of the error it rejects with. */
async function viaLangChain(tool: StructuredTool, args: Record<string, unknown>): Promise<Answer> {
  try {
    const message = (await tool.invoke({ type: "tool_call", id: "parity", name: tool.name, args })) as ToolMessage;
    return { text: String(message.content), details: message.artifact, isError: message.status === "error" };
  } catch (error) {
    return { text: (error as Error).message, details: undefined, isError: true };
  }
}

/** Values that differ from run to run (the session's id, its pid, durations, times) replaced by placeholders. */
function normalized(answer: Answer, sessionId: string | undefined): Answer {
  const json = JSON.stringify(answer, (key, value: unknown) => (typeof value === "number" && /(Ms|At|^pid)$/.test(key) ? 0 : value))
    .replace(/pid \d+/g, "pid <pid>").replace(/\b\d+(\.\d+)?(ms|s)\b/g, "<duration>");
  return JSON.parse(sessionId ? json.replaceAll(sessionId, "<id>") : json) as Answer;
}

describe.each([[[]], [["--no-process-tool"]]])("the MCP server with %j against the LangChain tools", (args: string[]) => {
  it("tools/list has the tools' names, descriptions and JSON schemas, in order", async () => {
    const { client } = await server(args);
    const { tools: served } = await client.listTools();
    const { tools, dispose } = createExecTools({ processTool: args.length === 0, cleanup: false });
    try {
      expect(served.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })))
        .toEqual(tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toJsonSchema(tool.schema) })));
    } finally {
      await dispose();
    }
  });
});

describe("tools/call answers as the LangChain tools do", () => {
  it("exec, process poll, log and list, and invalid arguments: the same texts, details and error flags", async () => {
    const { client } = await server();
    const { tools: [exec, processTool], dispose } = createExecTools({ cwd: workspace.cwd, env: { ...process.env, CONFORMANCE_SCENARIO: workspace.marker }, cleanup: false });
    const env = { CONFORMANCE_SCENARIO: workspace.marker };
    const viaMcp = async (name: string, callArgs: Record<string, unknown>): Promise<Answer> => {
      const result = await call(client, name, callArgs);
      const [first] = result.content;
      return { text: first?.type === "text" ? first.text : "", details: result.structuredContent, isError: result.isError === true };
    };
    try {
      /** The background session of each path, once started. */
      const ids: Partial<Record<"mcp" | "langchain", string>> = {};
      const both = async (name: "exec" | "process", callArgs: (path: "mcp" | "langchain") => Record<string, unknown>): Promise<Answer> => {
        const mcp = await viaMcp(name, callArgs("mcp"));
        const langchain = await viaLangChain(name === "exec" ? exec! : processTool!, callArgs("langchain"));
        ids.mcp ??= (mcp.details as { sessionId?: string } | undefined)?.sessionId;
        ids.langchain ??= (langchain.details as { sessionId?: string } | undefined)?.sessionId;
        expect(normalized(mcp, ids.mcp)).toEqual(normalized(langchain, ids.langchain));
        return mcp;
      };
      await both("exec", () => ({ command: "printf 'one\\ntwo\\n'; exit 3", env }));
      await both("exec", () => ({ command: "echo done", env, workdir: "/no/such/folder" }));
      await both("exec", () => ({ command: "printf 'a\\nb\\nc\\n'", env, background: true }));
      expect(ids.mcp && ids.langchain).toBeTruthy();
      // Both sessions end before the polls, so that each poll sees the exit (a poll returns early on new output).
      const listed = async (path: "mcp" | "langchain"): Promise<string> => {
        const answer = path === "mcp" ? await viaMcp("process", { action: "list" }) : await viaLangChain(processTool!, { action: "list" });
        return JSON.stringify(answer.details);
      };
      await until(async () => !(await listed("mcp")).includes('"running"') && !(await listed("langchain")).includes('"running"'), "both sessions ended");
      await both("process", (path) => ({ action: "poll", sessionId: ids[path], timeout: 10_000 }));
      await both("process", (path) => ({ action: "log", sessionId: ids[path], offset: 1, limit: 1 }));
      await both("process", () => ({ action: "list" }));
      await both("process", () => ({ action: "poll", sessionId: "nope" }));
      for (const invalid of [await both("exec", () => ({ command: 42, env })), await both("process", () => ({ keys: "Enter" }))]) {
        expect(invalid).toMatchObject({ isError: true, text: expect.stringMatching(/^Invalid (exec|process) arguments: /) });
      }
    } finally {
      await dispose();
    }
  });
});
