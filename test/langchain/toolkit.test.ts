// ExecToolkit (src/langchain/toolkit.ts): its tools, scopes and elevation (LC-01 … LC-05), draining the exit events
// into a message (LC-18) and resetting a derived scope's records (REG-13).
import { HumanMessage } from "@langchain/core/messages";
import { StructuredTool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { ExecToolkit, type LocalSessionEngine } from "../../src/index.js";
import {
  call, detailsOf, newEngine, newToolkit, sessionIdOf, setupToolkitTests, textOf, thread, waitFor, waitUntilExited, type Config,
} from "./helpers.js";

setupToolkitTests();

describe("toolkit and tools (LC-01, LC-02)", () => {
  it("LC-01: getTools returns the StructuredTools exec and process, in that order", () => {
    const toolkit = newToolkit();
    const tools = toolkit.getTools();
    expect(tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(tools.every((tool) => tool instanceof StructuredTool)).toBe(true);
    expect(tools).toEqual([toolkit.exec, toolkit.process]);
  });

  it("LC-02: with processTool false the toolkit offers only exec and toolkit.process is undefined", () => {
    const toolkit = newToolkit({ processTool: false });
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["exec"]);
    expect(toolkit.process).toBeUndefined();
  });

  it("LC-02: with processTool false exec runs synchronously past the yield window and never backgrounds", async () => {
    const toolkit = newToolkit({ processTool: false });
    const result = await call(toolkit.exec, { command: "sleep 0.3; echo done", yieldMs: 10 });
    expect(detailsOf(result)).toMatchObject({ status: "completed", exitCode: 0 });
    expect(textOf(result)).toBe("Warning: continuation options are unavailable; running synchronously.\n\n\n\ndone");
    const plain = await call(toolkit.exec, { command: "echo plain" });
    expect(textOf(plain)).toBe("plain");
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
    const lister = newToolkit({}, toolkit.engine);
    expect(textOf(await call(lister.process, { action: "list" }))).toBe("No running or recent sessions.");
  });
});

describe("scopes (LC-03, LC-04)", () => {
  it("LC-03: an explicit scopeKey wins over agentName, agentName gives agent:<name>, otherwise the scope is default", () => {
    const engine = newEngine();
    expect(new ExecToolkit({ engine, scopeKey: "shared", agentName: "builder" }).scopeKey).toBe("shared");
    expect(new ExecToolkit({ engine, agentName: "builder" }).scopeKey).toBe("agent:builder");
    expect(new ExecToolkit({ engine }).scopeKey).toBe("default");
  });

  it("LC-03: both tools of a toolkit use its scope, so a toolkit with the same explicit key sees the sessions", async () => {
    const builder = newToolkit({ agentName: "builder" });
    const sameScope = newToolkit({ scopeKey: "agent:builder" }, builder.engine);
    const otherScope = newToolkit({ agentName: "reviewer" }, builder.engine);
    const started = await call(builder.exec, { command: "sleep 30", background: true });
    const id = sessionIdOf(started);
    expect(textOf(await call(builder.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(sameScope.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(otherScope.process, { action: "list" }))).toBe("No running or recent sessions.");
    expect(textOf(await call(otherScope.process, { action: "poll", sessionId: id }))).toBe(`No session found for ${id}`);
  });

  it("LC-04: with scopeFromThread a session started in one thread is invisible from another thread and from the toolkit scope", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const started = await call(toolkit.exec, { command: "sleep 30", background: true }, thread("t1"));
    const id = sessionIdOf(started);
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t1")))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t2")))).toBe("No running or recent sessions.");
    expect(textOf(await call(toolkit.process, { action: "list" }))).toBe("No running or recent sessions.");
    const threadScope = newToolkit({ scopeKey: "thread:t1" }, toolkit.engine);
    expect(textOf(await call(threadScope.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
  });

  it("LC-04: calls without a thread id use the toolkit scope, and without scopeFromThread the thread id is ignored", async () => {
    const scoped = newToolkit({ agentName: "builder", scopeFromThread: true });
    const plain = newToolkit({ agentName: "builder" }, scoped.engine);
    const first = sessionIdOf(await call(scoped.exec, { command: "sleep 30", background: true }));
    const second = sessionIdOf(await call(plain.exec, { command: "sleep 30", background: true }, thread("t1")));
    const listed = textOf(await call(plain.process, { action: "list" }, thread("t2")));
    expect(listed).toContain(first);
    expect(listed).toContain(second);
  });
});

describe("elevation (LC-05)", () => {
  it("LC-05: elevated true is refused by default and runs locally when the toolkit allows elevation", async () => {
    const engine = newEngine();
    const refusing = new ExecToolkit({ engine });
    await expect(refusing.exec.invoke({ command: "echo up", elevated: true })).rejects.toThrow(/^elevated is not available right now \(runtime=direct\)\./);
    const allowing = new ExecToolkit({ engine, allowElevated: true });
    const result = await call(allowing.exec, { command: "echo up", elevated: true });
    expect(textOf(result)).toBe("up");
    expect(detailsOf(result)["status"]).toBe("completed");
  });
});

describe("drainEventMessages (LC-18)", () => {
  it("LC-18: drainEventMessages returns nothing when the queue is empty", async () => {
    expect(await newToolkit({ agentName: "builder" }).drainEventMessages()).toEqual([]);
  });

  it("LC-18: queued events become one HumanMessage of System lines in enqueue order, and the queue is emptied", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const first = sessionIdOf(await call(toolkit.exec, { command: "echo first", background: true }));
    await waitUntilExited(toolkit.engine, first);
    const second = sessionIdOf(await call(toolkit.exec, { command: "echo second; exit 4", background: true }));
    await waitUntilExited(toolkit.engine, second);
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 2);
    const messages = await toolkit.drainEventMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBeInstanceOf(HumanMessage);
    expect(messages[0]?.content).toBe(
      `System: Exec completed (${first.slice(0, 8)}, code 0) :: first\nSystem: Exec completed (${second.slice(0, 8)}, code 4) :: second`,
    );
    expect(await toolkit.drainEventMessages()).toEqual([]);
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toEqual([]);
  });

  it("LC-18: the threadId option drains the queue of thread:<id> and leaves the toolkit scope alone", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const inThread = sessionIdOf(await call(toolkit.exec, { command: "echo threaded", background: true }, thread("t9")));
    const inScope = sessionIdOf(await call(toolkit.exec, { command: "echo scoped", background: true }));
    await waitUntilExited(toolkit.engine, inThread);
    await waitUntilExited(toolkit.engine, inScope);
    await waitFor(() => toolkit.engine.peekSystemEvents("thread:t9").length === 1 && toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    expect((await toolkit.drainEventMessages({ threadId: "t9" })).map((m) => m.content)).toEqual([`System: Exec completed (${inThread.slice(0, 8)}, code 0) :: threaded`]);
    expect(await toolkit.drainEventMessages({ threadId: "t9" })).toEqual([]);
    expect((await toolkit.drainEventMessages()).map((m) => m.content)).toEqual([`System: Exec completed (${inScope.slice(0, 8)}, code 0) :: scoped`]);
  });
});

describe("resetSessionRecords (REG-13)", () => {
  async function finishedAndRunning(toolkit: ExecToolkit<LocalSessionEngine>, config?: Config): Promise<{ done: string; running: string }> {
    const done = sessionIdOf(await call(toolkit.exec, { command: "echo done", background: true }, config));
    const running = sessionIdOf(await call(toolkit.exec, { command: "sleep 30", background: true }, config));
    await waitUntilExited(toolkit.engine, done);
    return { done, running };
  }

  it("REG-13: a scope derived from the agent name loses its finished records and keeps running sessions", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const { done, running } = await finishedAndRunning(toolkit);
    expect(await toolkit.resetSessionRecords()).toBe(1);
    const listed = textOf(await call(toolkit.process, { action: "list" }));
    expect(listed).toMatch(new RegExp(`^${running} running `));
    expect(listed).not.toContain(done);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: done }))).toBe(`No session found for ${done}`);
    expect(await toolkit.resetSessionRecords()).toBe(0);
  });

  it.each([
    ["an explicit scopeKey", { scopeKey: "shared" }],
    ["the default scope", {}],
  ])("REG-13: %s is shared, so resetting is a no-op returning 0", async (_label, options) => {
    const toolkit = newToolkit(options);
    const { done } = await finishedAndRunning(toolkit);
    expect(await toolkit.resetSessionRecords()).toBe(0);
    expect(textOf(await call(toolkit.process, { action: "list" }))).toContain(done);
  });

  it("REG-13: the threadId option clears the finished records of thread:<id> only", async () => {
    const toolkit = newToolkit({ scopeKey: "shared", scopeFromThread: true });
    const { done, running } = await finishedAndRunning(toolkit, thread("t1"));
    const other = await finishedAndRunning(toolkit, thread("t2"));
    expect(await toolkit.resetSessionRecords({ threadId: "t1" })).toBe(1);
    const t1 = textOf(await call(toolkit.process, { action: "list" }, thread("t1")));
    expect(t1).toContain(running);
    expect(t1).not.toContain(done);
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t2")))).toContain(other.done);
  });
});
