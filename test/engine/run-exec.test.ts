// src/engine/exec/run-exec.ts: one exec call from start to its result: foreground, yield, background, sync mode,
// abort, executors, spawn failures and the PTY fallback (EXEC-09, EXEC-32 … EXEC-44, PTY-05, PTY-06, RES-24).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { abortError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor, ToolResult } from "../../src/engine/types.js";
import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, tempDir, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

const listText = async (engine: ReturnType<typeof newEngine>): Promise<string> =>
  textOf(await engine.process({ action: "list" }, ctx));

describe("abortError", () => {
  it("is named AbortError and carries the pinned message (EXEC-40)", () => {
    const error = abortError();
    expect(error.name).toBe("AbortError");
    expect(error.message).toBe(messages.ABORTED);
  });
});

describe("runExec", () => {
  it("returns the foreground result of a command that finishes in the window and keeps no record (EXEC-33)", async () => {
    const engine = newEngine();
    const result = await engine.exec({ command: "echo hello" }, ctx);
    expect(textOf(result)).toBe("hello");
    expect(result.details).toMatchObject({ status: "completed", exitCode: 0 });
    expect(await listText(engine)).toBe(messages.NO_SESSIONS);
  });

  it("backgrounds at once with background true, even a command that ends at once (EXEC-35)", async () => {
    const engine = newEngine();
    const result = await engine.exec({ command: "true", background: true }, ctx);
    const id = sessionIdOf(result);
    expect(textOf(result)).toBe(messages.stillRunning(id, result.details["pid"] as number));
    expect(textOf(await pollUntilDone(engine, id))).toBe(`${messages.NO_NEW_OUTPUT}\n\n${messages.processExitedWith("code 0")}`);
  });

  it("returns the running result when the yield window ends first, and the process keeps running (EXEC-34)", async () => {
    const engine = newEngine();
    const result = await engine.exec({ command: "sleep 30", yieldMs: 50 }, ctx);
    expect(result.details.status).toBe("running");
    expect(engine.liveSessionIds()).toEqual([sessionIdOf(result)]);
  }, 30_000);

  it("runs synchronously without the process tool, with the warning for continuation options (EXEC-42, EXEC-43)", async () => {
    const engine = newEngine();
    const result = await engine.exec({ command: "sleep 0.2; echo done", yieldMs: 10 }, { ...ctx, processToolAvailable: false });
    expect(textOf(result)).toBe(`${messages.SYNC_MODE_WARNING}\n\n\n\ndone`);
    expect(await listText(engine)).toBe(messages.NO_SESSIONS);
  });

  it("rejects an already aborted call without starting the command (EXEC-40)", async () => {
    const dir = tempDir("abort-");
    const engine = newEngine({ cwd: dir });
    await expect(engine.exec({ command: "touch made" }, { ...ctx, signal: AbortSignal.abort() })).rejects.toThrow(messages.ABORTED_BEFORE_START);
    expect(existsSync(join(dir, "made"))).toBe(false);
    expect(engine.liveSessionIds()).toEqual([]);
  });

  it("ends a foreground command on abort, rejects with AbortError and discards the session (EXEC-40)", async () => {
    const engine = newEngine();
    const controller = new AbortController();
    const call = engine.exec({ command: "sleep 30", yieldMs: 60_000 }, { ...ctx, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ name: "AbortError", message: messages.ABORTED });
    expect(await listText(engine)).toBe(messages.NO_SESSIONS);
  }, 30_000);

  it("sends progress updates only while the call is in its foreground window (EXEC-39)", async () => {
    const engine = newEngine();
    const updates: ToolResult[] = [];
    const result = await engine.exec({ command: "echo one; sleep 0.2; echo two" }, { ...ctx, onUpdate: (u) => void updates.push(u) });
    expect(textOf(result)).toBe("one\ntwo");
    expect(updates.map(textOf)).toContain("one\n");
    expect(updates.every((update) => update.details.status === "running")).toBe(true);
  });

  it("sends no progress update for output that arrives once the call has yielded (EXEC-39)", async () => {
    const engine = newEngine();
    const updates: ToolResult[] = [];
    const started = await engine.exec({ command: "echo one; sleep 1; echo two; sleep 30", yieldMs: 10 },
      { ...ctx, onUpdate: (u) => void updates.push(u) });
    expect(started.details.status).toBe("running");
    const sessionId = sessionIdOf(started);
    const logShows = async (text: string): Promise<boolean> => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
        if (textOf(await engine.process({ action: "log", sessionId }, ctx)).includes(text)) return true;
      }
      return false;
    };
    // The second line reaches the log a second after the yield: no update carries it.
    expect(await logShows("two")).toBe(true);
    expect(updates.filter((update) => textOf(update).includes("two"))).toEqual([]);
  }, 30_000);

  it("keeps the command alive when a progress listener throws (EXEC-39)", async () => {
    const engine = newEngine();
    const result = await engine.exec({ command: "echo one" }, { ...ctx, onUpdate: () => { throw new Error("listener"); } });
    expect(textOf(result)).toBe("one");
  });

  it("throws the spawn error and leaves no record when no process can be started (RES-24, PTY-06)", async () => {
    const engine = newEngine({ faults: { spawnUnavailable: "no processes today", ptyUnavailable: "no terminal" } });
    await expect(engine.exec({ command: "echo x", background: true }, ctx)).rejects.toThrow("no processes today");
    await expect(engine.exec({ command: "echo x", pty: true }, ctx)).rejects.toThrow("no processes today");
    expect(await listText(engine)).toBe(messages.NO_SESSIONS);
  });

  it("retries a failed PTY over pipes and puts the fallback warning before the output (PTY-05, RES-09)", async () => {
    const engine = newEngine({ faults: { ptyUnavailable: "no terminal" } });
    const result = await engine.exec({ command: "echo piped", pty: true }, ctx);
    expect(textOf(result)).toBe(`${messages.ptyFallbackWarning("no terminal", "echo piped")}\n\n\n\npiped`);
  });
});

describe("runExec with a host executor (EXEC-09, EXEC-10)", () => {
  /** An executor whose process prints one line and exits 0; it records every request. */
  function recordingExecutor(): { executor: HostExecutor; requests: ExecutorSpawnRequest[] } {
    const requests: ExecutorSpawnRequest[] = [];
    const executor: HostExecutor = {
      async spawn(request) {
        requests.push(request);
        let output: (stream: "stdout" | "stderr", chunk: string) => void = () => {};
        const process: ExecutorProcess = {
          pid: 77,
          onOutput: (listener) => void (output = listener),
          onExit: (listener) => void setTimeout(() => {
            output("stdout", "remote ok\n");
            listener(0, null);
          }, 10),
        };
        return process;
      },
    };
    return { executor, requests };
  }

  it("hands the command, resolved workdir, prepared environment, pty, node, elevation and scope to the executor", async () => {
    const { executor, requests } = recordingExecutor();
    const engine = newEngine({ cwd: "/srv", executors: { node: executor }, config: { tools: { exec: { pathPrepend: ["/opt/prepended-locally"] } } } });
    const result = await engine.exec({ command: "uname", host: "node", node: "builder-1", workdir: "not/checked", env: { FOO: "bar" } }, ctx);
    expect(textOf(result)).toBe("remote ok");
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ command: "uname", cwd: "/srv/not/checked", pty: false, elevated: false, node: "builder-1",
      scopeKey: ctx.scopeKey });
    expect(request?.env).toMatchObject({ FOO: "bar", OPENCLAW_SHELL: "exec" });
    expect(request?.env["PATH"]).not.toContain("/opt/prepended-locally"); // SET-23 prefixes the local PATH only
  });

  it("does not pass the node name to the sandbox executor (EXEC-10)", async () => {
    const { executor, requests } = recordingExecutor();
    const engine = newEngine({ executors: { sandbox: executor } });
    await engine.exec({ command: "true", host: "sandbox", node: "ignored" }, ctx);
    expect(requests[0]).not.toHaveProperty("node");
  });
});
