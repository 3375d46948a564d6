// Agents with the watch tool and retry dedupe (issue 34), offline: createAgent + a scripted fakeModel + MemorySaver.
// 1. "Start the dev server, tell me when it is ready": the agent is woken by the `Output matched` event while the
//    server still runs, with no poll in between. 2. A retried exec 1 s later starts no second process (/proc marker).
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { randomUUID } from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecTools, type CreateExecToolsOptions, type ExecTools } from "../../src/index.js";
import { markersRunning } from "../engine/helpers/marked-jobs.js";

const THREAD = { configurable: { thread_id: "dev" } };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cwd: string;
const kits: ExecTools[] = [];
const stops: Array<() => void> = [];

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "watch-agent-")));
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(kits.splice(0).map((kit) => kit.dispose()));
  rmSync(cwd, { recursive: true, force: true });
});

function newKit(options: CreateExecToolsOptions): ExecTools {
  const kit = createExecTools({ agentName: "dev", cwd, env: { ...process.env, SHELL: "/bin/sh" }, ...options });
  kits.push(kit);
  return kit;
}

/** The session id a model reads in the last tool result: `Command still running (session <id>, pid …)`. */
function sessionIdIn(messages: BaseMessage[]): string {
  const text = String(messages.filter((m) => m instanceof ToolMessage).at(-1)?.content ?? "");
  const id = /Command still running \(session ([^,)]+), pid/.exec(text)?.[1];
  if (id === undefined) throw new Error(`no running session in: ${text}`);
  return id;
}

const toolCallsOf = (messages: BaseMessage[]): string[] =>
  messages.flatMap((m) => (m instanceof AIMessage ? (m.tool_calls ?? []).map((c) => c.name) : []));

describe("an agent with the watch tool", () => {
  it("is woken by the watch event when the dev server prints `ready`, before the server exits and with no poll", async () => {
    const kit = newKit({ watchTool: true });
    expect(kit.tools.map((tool) => tool.name)).toEqual(["exec", "process", "watch"]);
    let sessionId = "";
    let serverRunningAtWake: boolean | undefined;
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 2; echo 'dev server ready on :5173'; sleep 4", background: true } }])
      .respond((messages) => {
        sessionId = sessionIdIn(messages);
        return new AIMessage({ content: "", tool_calls: [{ id: "w1", name: "watch", args: { sessionId, pattern: "ready" } }] });
      })
      .respond(new AIMessage("Started the dev server; I will tell you when it is ready."))
      .respond(() => {
        serverRunningAtWake = kit.engine.liveSessionIds().includes(sessionId);
        return new AIMessage("The dev server is ready on :5173.");
      });
    const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware], checkpointer: new MemorySaver() });
    const ready = kit.toolkit.wakeOnExit(agent, THREAD);
    stops.push(ready);
    const startedAt = Date.now();
    const first = await agent.invoke({ messages: [new HumanMessage("Start the dev server, tell me when it is ready.")] }, THREAD);
    expect(first.messages.at(-1)?.text).toBe("Started the dev server; I will tell you when it is ready.");
    expect(Date.now() - startedAt).toBeLessThan(2_000); // the first turn ended before `ready` was printed

    const { result } = await ready.nextRun();
    expect(result.messages.at(-1)?.text).toBe("The dev server is ready on :5173.");
    expect(serverRunningAtWake).toBe(true);
    expect(model.calls).toHaveLength(4);
    const woken = model.calls[3]!.messages.map((m: BaseMessage) => m.content);
    expect(woken).toContain(`System: Output matched (${sessionId}): dev server ready on :5173`);
    expect(toolCallsOf(result.messages)).toEqual(["exec", "watch"]); // no process poll in between
  }, 20_000);
});

describe("an agent with retry dedupe", () => {
  it("two identical exec calls 1 s apart start one process, and the retry is told it is the same job", async () => {
    const kit = newKit({ dedupeWindowMs: 10_000 });
    const probe = `dev-server-${randomUUID()}`;
    const exec = { name: "exec", args: { command: `sleep 30; echo ${probe}`, background: true } };
    const model = fakeModel()
      .respondWithTools([exec])
      .respond(new AIMessage("Started."))
      .respondWithTools([exec])
      .respond(new AIMessage("Started again."));
    const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware], checkpointer: new MemorySaver() });
    const firstCalled = Date.now();
    const first = await agent.invoke({ messages: [new HumanMessage("Start the server.")] }, THREAD);
    const firstAnswered = Date.now();
    await sleep(1_000);
    const secondCalled = Date.now();
    const second = await agent.invoke({ messages: [new HumanMessage("Did it start? Start it again.")] }, THREAD);
    const secondAnswered = Date.now();
    const firstId = sessionIdIn(first.messages);
    const retried = String(second.messages.filter((m) => m instanceof ToolMessage).at(-1)?.content);
    const note = new RegExp(`^Same job already started (\\d+) s ago \\(session ${firstId}\\): no second process was started\\.`).exec(retried);
    expect(note, retried).not.toBeNull();
    // The job started while the first call ran and was joined while the second ran; on an idle machine that is 1 s,
    // and a loaded one may stretch either call.
    const ago = Number(note?.[1]);
    expect(ago).toBeGreaterThanOrEqual(Math.round((secondCalled - firstAnswered) / 1000));
    expect(ago).toBeLessThanOrEqual(Math.round((secondAnswered - firstCalled) / 1000));
    expect(sessionIdIn(second.messages)).toBe(firstId);
    expect(markersRunning(probe)).toHaveLength(1);
  }, 20_000);
});
