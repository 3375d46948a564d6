// src/engine/process/run-process.ts: the dispatch of one process call: action and sessionId checks, scoped lookups
// and the guards, in SPEC order (PROC-02 … PROC-14, KILL-02 … KILL-05, INPUT-04).
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { deriveSessionName } from "../../src/engine/session-name.js";
import type { ExecutorProcess, HostExecutor, LocalSessionEngine, ToolResult } from "../../src/engine/types.js";
import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, textOf, waitUntil } from "../reliability/helpers.js";

afterEach(disposeEngines);

const failed = (text: string) => ({ content: [{ type: "text", text }], details: { status: "failed", error: text } });
const call = (engine: LocalSessionEngine, params: Record<string, unknown>) => engine.process(params, ctx);
const background = async (engine: LocalSessionEngine, command: string): Promise<string> =>
  sessionIdOf(await engine.exec({ command, background: true }, ctx));

describe("runProcess: action and sessionId", () => {
  it.each([["explode"], [""], [42], [undefined], ["LIST"]])("returns the invalid-action failure for action %j (PROC-02, PROC-04)", async (action) => {
    expect(await call(newEngine(), { action })).toEqual(failed(messages.INVALID_ACTION));
  });

  it.each(["poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"])(
    "requires a non-empty sessionId for %s (PROC-03)", async (action) => {
      const engine = newEngine();
      expect(await call(engine, { action })).toEqual(failed(messages.SESSION_ID_REQUIRED));
      expect(await call(engine, { action, sessionId: "" })).toEqual(failed(messages.SESSION_ID_REQUIRED));
    });

  it.each([
    ["poll", messages.noSession], ["log", messages.noSession], ["write", messages.noActiveSession],
    ["kill", messages.noActiveSession], ["clear", messages.noFinishedSession], ["remove", messages.noSession],
  ] as const)("answers %s of an unknown id with its not-found text (POLL-02, INPUT-04, KILL-02, PROC-10, PROC-13)", async (action, text) => {
    expect(await call(newEngine(), { action, sessionId: "no-such" })).toEqual(failed(text("no-such")));
  });

  it("only looks in the caller's scope (PROC-06)", async () => {
    const engine = newEngine();
    const id = await background(engine, "sleep 30");
    expect(await engine.process({ action: "poll", sessionId: id }, { scopeKey: "other" })).toEqual(failed(messages.noSession(id)));
  }, 30_000);
});

describe("runProcess: a session in its foreground window (PROC-07)", () => {
  it.each(["poll", "log", "write", "kill", "remove"])("refuses %s as not backgrounded", async (action) => {
    const engine = newEngine();
    let id: string | undefined;
    // The progress update of the first output names the session while the call is still in its window (EXEC-39).
    const onUpdate = (update: ToolResult) => void (id ??= String(update.details["sessionId"]));
    const foreground = engine.exec({ command: "echo started; sleep 30", yieldMs: 60_000 }, { ...ctx, onUpdate });
    expect(await waitUntil(() => id !== undefined, 10_000)).toBe(true);
    expect(await call(engine, { action, sessionId: id })).toEqual(failed(messages.notBackgrounded(String(id))));
    await engine.dispose();
    await foreground.catch(() => undefined);
  }, 30_000);
});

describe("runProcess: kill, clear and remove", () => {
  it("requests termination of a running session and answers completed with its name (KILL-03)", async () => {
    const engine = newEngine();
    const id = await background(engine, "sleep 30");
    expect(await call(engine, { action: "kill", sessionId: id })).toEqual({
      content: [{ type: "text", text: messages.terminationRequested(id) }], details: { status: "completed", name: deriveSessionName("sleep 30") },
    });
    expect(textOf(await pollUntilDone(engine, id))).toBe(
      `${messages.NO_NEW_OUTPUT}\n\n${messages.processStoppedByRequest("signal SIGTERM")}`);
  }, 30_000);

  it("refuses to clear a running session and leaves it running (PROC-10)", async () => {
    const engine = newEngine();
    const id = await background(engine, "sleep 30");
    expect(await call(engine, { action: "clear", sessionId: id })).toEqual(failed(messages.noFinishedSession(id)));
    expect(engine.liveSessionIds()).toEqual([id]);
  }, 30_000);

  it("clears a finished record, after which its id is unknown (PROC-09)", async () => {
    const engine = newEngine();
    const id = await background(engine, "true");
    await pollUntilDone(engine, id);
    expect(await call(engine, { action: "clear", sessionId: id })).toEqual({
      content: [{ type: "text", text: messages.cleared(id) }], details: { status: "completed" },
    });
    expect(await call(engine, { action: "log", sessionId: id })).toEqual(failed(messages.noSession(id)));
  }, 30_000);

  it("removes a running session: hidden at once, terminated, never listed again (PROC-12, PROC-14)", async () => {
    const engine = newEngine();
    const id = await background(engine, "sleep 30");
    expect(textOf(await call(engine, { action: "remove", sessionId: id }))).toBe(messages.removedRunning(id));
    expect(await call(engine, { action: "poll", sessionId: id })).toEqual(failed(messages.noSession(id)));
    expect(textOf(await call(engine, { action: "list" }))).toBe(messages.NO_SESSIONS);
    expect(await waitUntil(() => engine.liveSessionIds().length === 0, 20_000)).toBe(true);
  }, 30_000);

  it("removes a finished record (PROC-13)", async () => {
    const engine = newEngine();
    const id = await background(engine, "true");
    await pollUntilDone(engine, id);
    expect(textOf(await call(engine, { action: "remove", sessionId: id }))).toBe(messages.removedFinished(id));
    expect(await call(engine, { action: "remove", sessionId: id })).toEqual(failed(messages.noSession(id)));
  }, 30_000);
});

describe("runProcess: a session that cannot be signalled (KILL-05, PROC-12)", () => {
  // An executor process without kill, which never exits by itself: engine disposal settles it.
  const silentExecutor: HostExecutor = {
    spawn: async (): Promise<ExecutorProcess> => ({ pid: 9, onOutput: () => {}, onExit: () => {} }),
  };

  it("answers kill and remove with the no-handle texts and keeps the session", async () => {
    const engine = newEngine({ executors: { sandbox: silentExecutor } });
    const id = sessionIdOf(await engine.exec({ command: "serve", host: "sandbox", background: true }, ctx));
    expect(await call(engine, { action: "kill", sessionId: id })).toEqual(failed(messages.unableToTerminate(id)));
    expect(await call(engine, { action: "remove", sessionId: id })).toEqual(failed(messages.unableToRemove(id)));
    expect(engine.liveSessionIds()).toEqual([id]);
  });
});
