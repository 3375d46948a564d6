// src/engine/spawn/executor-backend.ts: a host executor's process presented as the engine's child (EXEC-09, KILL-05,
// INPUT-16): its output, its one exit, its kill and its terminal replies.
import { describe, expect, it } from "vitest";
import type { ChildSink } from "../../src/engine/spawn/child-handle.js";
import { spawnWithExecutor } from "../../src/engine/spawn/executor-backend.js";
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../../src/engine/types.js";

const request: ExecutorSpawnRequest = { command: "uname", cwd: "/srv", defaultCwd: "/srv", env: {}, envOverrides: {}, pty: true, elevated: false, scopeKey: "s" };

/** A fake executor process driven by the test, and a sink that records in order. */
function setup(extra: Partial<ExecutorProcess> = {}) {
  let emitOutput: (stream: "stdout" | "stderr", chunk: string | Uint8Array) => void = () => {};
  let emitExit: (code: number | null, signal: string | null) => void = () => {};
  const process: ExecutorProcess = {
    pid: 31, onOutput: (listener) => void (emitOutput = listener), onExit: (listener) => void (emitExit = listener), ...extra,
  };
  const requests: ExecutorSpawnRequest[] = [];
  const executor: HostExecutor = {
    async spawn(spawnRequest) {
      requests.push(spawnRequest);
      return process;
    },
  };
  const events: unknown[] = [];
  const sink: ChildSink = {
    onOutput: (stream, chunk) => void events.push(["output", stream, typeof chunk === "string" ? chunk : Buffer.from(chunk).toString()]),
    onExit: (...args) => void events.push(["exit", ...args]),
    onComplete: (code, signal) => void events.push(["complete", code, signal]),
  };
  return { process, executor, sink, events, requests, emitOutput: (...a: Parameters<typeof emitOutput>) => emitOutput(...a),
    emitExit: (...a: Parameters<typeof emitExit>) => emitExit(...a) };
}

describe("spawnWithExecutor", () => {
  it("passes the request to the executor and reports its pid and the requested pty", async () => {
    const { executor, sink, requests } = setup();
    const handle = await spawnWithExecutor(executor, request, sink);
    expect(requests).toEqual([request]);
    expect({ pid: handle.pid, pty: handle.pty }).toEqual({ pid: 31, pty: true });
  });

  it("delivers a copy of each byte chunk, so an executor may reuse its buffer", async () => {
    const { executor, sink, events, emitOutput } = setup();
    await spawnWithExecutor(executor, request, sink);
    const buffer = Buffer.from("first");
    emitOutput("stdout", buffer);
    buffer.write("XXXXX");
    emitOutput("stderr", "text");
    expect(events).toEqual([["output", "stdout", "first"], ["output", "stderr", "text"]]);
  });

  it("reports the exit once, as exit then completion, and ignores output and exits after it (REG-04)", async () => {
    const { executor, sink, events, emitOutput, emitExit } = setup();
    await spawnWithExecutor(executor, request, sink);
    emitExit(3, null);
    emitOutput("stdout", "late");
    emitExit(0, "SIGTERM");
    expect(events).toEqual([["exit"], ["complete", 3, null]]);
  });

  it("cannot be signalled when the process has no kill (KILL-05)", async () => {
    const { executor, sink } = setup();
    expect((await spawnWithExecutor(executor, request, sink)).signal).toBeUndefined();
  });

  it("forwards signals to the process's own kill (KILL-08)", async () => {
    const calls: unknown[] = [];
    const { executor, sink, process } = setup({
      kill(signal) {
        calls.push(["kill", signal, this === process]);
      },
    });
    const handle = await spawnWithExecutor(executor, request, sink);
    handle.signal?.("SIGTERM");
    expect(calls).toEqual([["kill", "SIGTERM", true]]);
  });

  it("answers a remote terminal's cursor-position request through the process's reply, keeps it out of the output, and tracks the cursor-key mode (INPUT-16, KEYS-12)", async () => {
    const replies: unknown[] = [];
    const { executor, sink, events, process, emitOutput } = setup({
      reply(data) {
        replies.push([data, this === process]);
      },
    });
    const handle = await spawnWithExecutor(executor, request, sink);
    expect(handle.cursorKeyMode).toBe("unknown");
    emitOutput("stdout", "a\u001b[?1h\u001b[6nb");
    expect(replies).toEqual([["\u001b[1;1R", true]]);
    expect(events).toEqual([["output", "stdout", "a\u001b[?1hb"]]);
    expect(handle.cursorKeyMode).toBe("application");
  });

  it("leaves output without a terminal as it is, in normal cursor-key mode", async () => {
    const { executor, sink, events, emitOutput } = setup();
    const handle = await spawnWithExecutor(executor, { ...request, pty: false }, sink);
    emitOutput("stdout", "a\u001b[6nb");
    expect(events).toEqual([["output", "stdout", "a\u001b[6nb"]]);
    expect(handle.cursorKeyMode).toBe("normal");
  });

  it("passes the executor's stdin through as the session's input", async () => {
    const stdin = { write: async () => {}, end: () => {}, writable: true };
    const { executor, sink } = setup({ stdin });
    expect((await spawnWithExecutor(executor, request, sink)).stdin).toBe(stdin);
  });

  it("takes a terminal the executor reads itself as it comes, with the executor's cursor-key mode (no second inspection)", async () => {
    let mode: "normal" | "application" = "normal";
    const replies: string[] = [];
    const { process, executor, sink, events, emitOutput } = setup({ reply: (data) => void replies.push(data) });
    Object.defineProperty(process, "cursorKeyMode", { get: () => mode, enumerable: true });
    const handle = await spawnWithExecutor(executor, request, sink);
    emitOutput("stdout", "plain\x1b[?1h\x1b[6n");
    expect(events).toEqual([["output", "stdout", "plain\x1b[?1h\x1b[6n"]]);
    expect(replies).toEqual([]);
    expect(handle.cursorKeyMode).toBe("normal");
    mode = "application";
    expect(handle.cursorKeyMode).toBe("application");
  });

  it("rejects with the executor's spawn error (EXEC-09, RES-24)", async () => {
    const executor: HostExecutor = { spawn: () => Promise.reject(new Error("node builder-1 is offline")) };
    await expect(spawnWithExecutor(executor, request, setup().sink)).rejects.toThrow("node builder-1 is offline");
  });
});
