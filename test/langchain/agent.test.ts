// Offline agent tests: createAgent + fakeModel (no key, no network) drive the real tools end to end.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecTools, ExecToolkit, createSessionEngine, type ExecTools } from "../../src/index.js";

let cwd: string;
let kit: ExecTools;
const engines: Array<{ dispose(): Promise<void> }> = [];

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "agent-test-")));
  kit = createExecTools({ agentName: "builder", cwd, env: { ...process.env, SHELL: "/bin/sh" } });
  engines.push(kit);
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()));
  rmSync(cwd, { recursive: true, force: true });
});

const toolMessages = (messages: BaseMessage[]): ToolMessage[] => messages.filter((m): m is ToolMessage => m instanceof ToolMessage);

/** The session id from the last exec ToolMessage the model has seen. */
function lastSessionId(messages: BaseMessage[]): string {
  const artifact = toolMessages(messages).reverse().find((m) => m.name === "exec")?.artifact as { sessionId?: string };
  if (!artifact?.sessionId) throw new Error("the model saw no running exec result");
  return artifact.sessionId;
}

async function waitUntilNotLive(id: string): Promise<void> {
  for (let i = 0; i < 500 && kit.engine.liveSessionIds().includes(id); i += 1) await new Promise((r) => setTimeout(r, 20));
}

describe("an agent with the exec and process tools", () => {
  it("starts a background build, sees it running, then polls it to completion", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.3 && touch built.txt", background: true } }])
      .respondWithTools([{ name: "process", args: { action: "list" } }])
      .respond((messages) => new AIMessage({
        content: "", tool_calls: [{ name: "process", args: { action: "poll", sessionId: lastSessionId(messages), timeout: 10000 }, id: "poll-1", type: "tool_call" }],
      }))
      .respond(new AIMessage("the build finished"));
    const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("build it")] });
    const [started, listed, polled] = toolMessages(messages);
    const id = (started?.artifact as { sessionId: string }).sessionId;
    expect(started?.content).toBe(`Command still running (session ${id}, pid ${(started?.artifact as { pid: number }).pid}). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.`);
    expect(started?.status).toBe("success");
    expect(listed?.content).toMatch(new RegExp(`^${id} running `));
    expect(polled?.content).toBe("(no new output)\n\nProcess exited with code 0.");
    expect(polled?.artifact).toMatchObject({ status: "completed", exitCode: 0, sessionId: id });
  });

  it("is told about a finished background job by the middleware before its next model call, then polls it", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.2; echo built ok", background: true } }])
      .respond(new AIMessage("started; I will wait for the completion notice"))
      .respond((messages) => new AIMessage({
        content: "", tool_calls: [{ name: "process", args: { action: "poll", sessionId: lastSessionId(messages) }, id: "poll-2", type: "tool_call" }],
      }))
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware] });
    const first = await agent.invoke({ messages: [new HumanMessage("build it")] });
    const id = lastSessionId(first.messages);
    await waitUntilNotLive(id);
    expect(kit.engine.peekSystemEvents("agent:builder")).toHaveLength(1);
    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("anything new?")] });
    // The model's third call saw the event as a System line (LC-18, LC-19).
    const seen = model.calls[2]?.messages.map((m) => (typeof m.content === "string" ? m.content : "")) ?? [];
    expect(seen).toContain(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built ok`);
    expect(kit.engine.peekSystemEvents("agent:builder")).toEqual([]);
    expect(toolMessages(second.messages).at(-1)?.content).toBe("built ok\n\nProcess exited with code 0.");
  });

  it("answers a PTY prompt with write and submit", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "printf 'Name? '; read -r name; printf 'Age? '; read -r age; echo \"hi $name $age\"", pty: true, background: true } }])
      .respond((messages) => toolCall("process", { action: "poll", sessionId: lastSessionId(messages), timeout: 5000 }))
      .respond((messages) => toolCall("process", { action: "write", sessionId: lastSessionId(messages), data: "bob\n" }))
      .respond((messages) => toolCall("process", { action: "write", sessionId: lastSessionId(messages), data: "42" }))
      .respond((messages) => toolCall("process", { action: "submit", sessionId: lastSessionId(messages) }))
      .respond((messages) => toolCall("process", { action: "poll", sessionId: lastSessionId(messages), timeout: 2000 }))
      .respond(new AIMessage("answered"));
    const agent = createAgent({ model, tools: kit.tools });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("answer the prompt")] });
    const results = toolMessages(messages).map((m) => String(m.content).replace(/\r\n/g, "\n"));
    const id = lastSessionId(messages);
    expect(results[1]).toContain("Name?");
    expect(results[2]).toBe(`Wrote 4 bytes to session ${id}.`);
    expect(results[4]).toBe(`Submitted session ${id} (sent CR).`);
    await waitUntilNotLive(id);
    const log = await kit.toolkit.process!.invoke({ type: "tool_call", id: "log", name: "process", args: { action: "log", sessionId: id } });
    expect(String((log as ToolMessage).content).replace(/\r\n/g, "\n")).toContain("hi bob 42");
  });

  it("shows a schema error to the model as a clean message naming the field, without a stack trace", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: 42, timeoutSeconds: "5" } }])
      .respond(new AIMessage("sorry"));
    const agent = createAgent({ model, tools: kit.tools });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("go")] });
    const error = toolMessages(messages)[0];
    expect(error?.status).toBe("error");
    const text = String(error?.content);
    expect(text).toContain("command: expected string, received number");
    expect(text).toContain("timeoutSeconds: expected number, received string");
    expect(text).not.toMatch(/\s+at\s|node_modules|\.ts:\d+/);
  });

  it("kills a foreground command's process group when the agent run is aborted", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo $$ > pid; sleep 30", yieldMs: 60000 } }])
      .respond(new AIMessage("unreachable"));
    const agent = createAgent({ model, tools: kit.tools });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, { signal: controller.signal })).rejects.toThrow();
    const pid = Number((await import("node:fs")).readFileSync(join(cwd, "pid"), "utf8"));
    for (let i = 0; i < 100 && isAlive(pid); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(pid)).toBe(false);
    expect(kit.engine.liveSessionIds()).toEqual([]);
  });

  it("keeps two agents with different scopes from seeing each other's sessions", async () => {
    const other = new ExecToolkit({ engine: kit.engine, agentName: "reviewer" });
    const started = await kit.toolkit.exec.invoke({ type: "tool_call", id: "s", name: "exec", args: { command: "sleep 30", background: true } });
    const id = ((started as ToolMessage).artifact as { sessionId: string }).sessionId;
    const model = fakeModel()
      .respondWithTools([{ name: "process", args: { action: "poll", sessionId: id } }, { name: "process", args: { action: "list" } }])
      .respond(new AIMessage("nothing"));
    const agent = createAgent({ model, tools: other.getTools() });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("look")] });
    const [poll, list] = toolMessages(messages);
    expect(poll?.content).toBe(`No session found for ${id}`);
    expect(poll?.status).toBe("error");
    expect(list?.content).toBe("No running or recent sessions.");
  });

  it("works as a ToolNode inside a hand-built LangGraph graph, with the exit-event node before the model", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo from-graph" } }])
      .respond(new AIMessage("done"));
    const bound = model.bindTools(kit.tools);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("events", kit.toolkit.createExitEventNode())
      .addNode("model", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode("tools", new ToolNode(kit.tools))
      .addEdge(START, "events")
      .addEdge("events", "model")
      .addConditionalEdges("model", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END))
      .addEdge("tools", "events")
      .compile();
    const { messages } = await graph.invoke({ messages: [new HumanMessage("run it")] });
    expect(toolMessages(messages)[0]?.content).toBe("from-graph");
    expect(messages.at(-1)?.content).toBe("done");
  });

  it("streams foreground progress to the LangGraph custom stream", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo one; sleep 0.3; echo two" } }])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: kit.tools });
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream({ messages: [new HumanMessage("go")] }, { streamMode: "custom" })) chunks.push(chunk);
    const texts = chunks.map((chunk) => (chunk as { text?: string }).text);
    expect(texts).toContain("one\n");
    expect(chunks.every((chunk) => (chunk as { event?: string }).event === "exec_update")).toBe(true);
  });
});

describe("an engine shared by several toolkits", () => {
  it("ends every live process of all toolkits on dispose", async () => {
    const engine = createSessionEngine({ cwd, env: { ...process.env, SHELL: "/bin/sh" } });
    engines.push(engine);
    const a = new ExecToolkit({ engine, scopeKey: "a" });
    const b = new ExecToolkit({ engine, scopeKey: "b" });
    for (const toolkit of [a, b]) {
      await toolkit.exec.invoke({ type: "tool_call", id: "x", name: "exec", args: { command: "sleep 30", background: true } });
    }
    expect(engine.liveSessionIds()).toHaveLength(2);
    await engine.dispose();
    expect(engine.liveSessionIds()).toEqual([]);
  });
});

function toolCall(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: "", tool_calls: [{ name, args, id: `${name}-${Math.random().toString(36).slice(2)}`, type: "tool_call" }] });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
