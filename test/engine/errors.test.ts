// src/engine/errors.ts: every rejection is an ExecProcessError with a code, the offending parameter and its data,
// and its message is the pinned text of messages.ts for that data.
import { afterEach, describe, expect, it } from "vitest";
import { ExecProcessError, describeError, type ErrorData } from "../../src/engine/index.js";
import * as messages from "../../src/engine/messages.js";
import { ctx, disposeEngines, newEngine, sessionIdOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

/** The rejection of `call`, which must be an ExecProcessError. */
async function rejectionOf(call: Promise<unknown>): Promise<ExecProcessError> {
  const error = await call.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ExecProcessError);
  return error as ExecProcessError;
}

describe("exec parameter errors", () => {
  it.each<[string, Record<string, unknown>, ErrorData, string]>([
    ["an empty command is missing-command on command", { command: "" },
      { code: "missing-command", param: "command" }, messages.MISSING_COMMAND],
    ["a NUL byte in the command is unsafe-string on command, at its index", { command: "echo a\u0000b" },
      { code: "unsafe-string", param: "command", index: 6 }, messages.nulByteIn("command", 6)],
    ["a NUL byte in an env value is unsafe-string on env, with its key", { command: "true", env: { FOO: "a\u0000" } },
      { code: "unsafe-string", param: "env", index: 1, key: "FOO" }, messages.nulByteIn('env "FOO"', 1)],
    ["an unknown host is invalid-host on host, with the value", { command: "true", host: "Bogus" },
      { code: "invalid-host", param: "host", value: "Bogus" }, 'Invalid exec host "Bogus". Allowed values: auto, sandbox, gateway, node.'],
    ["a host without executor is host-unavailable on host", { command: "true", host: "sandbox" },
      { code: "host-unavailable", param: "host", host: "sandbox" }, messages.hostUnavailable("sandbox")],
    ["elevation without permission is elevation-unavailable on elevated", { command: "true", elevated: true },
      { code: "elevation-unavailable", param: "elevated" }, messages.ELEVATION_UNAVAILABLE],
    ["one blocked PATH override is env-blocked with its own sentence", { command: "true", env: { path: "/x" } },
      { code: "env-blocked", param: "env", blockedKeys: ["PATH"], invalidKeys: [] }, messages.PATH_FORBIDDEN],
    ["blocked and invalid overrides are env-blocked with both key lists, sorted", {
      command: "true", env: { PATH: "/x", LD_PRELOAD: "/y.so", "bad-key": "1", NODE_OPTIONS: "", FINE: "ok" },
    }, { code: "env-blocked", param: "env", blockedKeys: ["LD_PRELOAD", "NODE_OPTIONS", "PATH"], invalidKeys: ["bad-key"] },
    "Security Violation: Custom 'PATH' variable is forbidden during host execution (blocked override keys: LD_PRELOAD, " +
      "NODE_OPTIONS, PATH; invalid non-portable override keys: bad-key)."],
    ["a command over MAX_ARG_STRLEN is argument-too-large on command", { command: "x".repeat(200_000) },
      { code: "argument-too-large", param: "command", bytes: 200_000, limitBytes: 131_072 },
      messages.argumentTooLarge("command", 200_000, 131_072)],
    ["an env entry over MAX_ARG_STRLEN is argument-too-large on env, with its key",
      { command: "true", env: { BIG: "y".repeat(140_000) } },
      { code: "argument-too-large", param: "env", key: "BIG", bytes: 140_004, limitBytes: 131_072 },
      messages.argumentTooLarge('env "BIG"', 140_004, 131_072)],
  ])("%s", async (_, params, data, text) => {
    const error = await rejectionOf(newEngine().exec(params, ctx));
    expect(error.data).toEqual(data);
    expect(error.code).toBe(data.code);
    expect(error.param).toBe("param" in data ? data.param : undefined);
    expect(error.message).toBe(text);
    expect(error.name).toBe("Error");
  });
});

describe("call errors", () => {
  it("a call whose signal already aborted is aborted, named AbortError, with the pinned text", async () => {
    const error = await rejectionOf(newEngine().exec({ command: "true" }, { ...ctx, signal: AbortSignal.abort() }));
    expect(error.code).toBe("aborted");
    expect(error.param).toBeUndefined();
    expect(error.name).toBe("AbortError");
    expect(error.message).toBe(messages.ABORTED_BEFORE_START);
  });

  it("a call after dispose is engine-disposed, for exec and process alike", async () => {
    const engine = newEngine();
    await engine.dispose();
    for (const call of [engine.exec({ command: "true" }, ctx), engine.process({ action: "list" }, ctx)]) {
      const error = await rejectionOf(call);
      expect(error.data).toEqual({ code: "engine-disposed" });
      expect(error.message).toBe(messages.ENGINE_DISPOSED);
    }
  });

  it("a command no backend can start is spawn-failed with the backend's reason, after the PTY fallback", async () => {
    const engine = newEngine({ faults: { ptyUnavailable: "no terminal here", spawnUnavailable: "no processes here" } });
    const error = await rejectionOf(engine.exec({ command: "true", pty: true }, ctx));
    expect(error.data).toEqual({ code: "spawn-failed", reason: "no processes here" });
    expect(error.message).toBe("no processes here");
    expect(engine.liveSessionIds()).toEqual([]);
  });

  it("a failing input write is stdin-write-failed with the stream's reason", async () => {
    const engine = newEngine({ faults: { stdinWriteError: "the pipe broke" } });
    const id = sessionIdOf(await engine.exec({ command: "cat", pty: true, background: true }, ctx));
    const error = await rejectionOf(engine.process({ action: "write", sessionId: id, data: "x" }, ctx));
    expect(error.data).toEqual({ code: "stdin-write-failed", reason: "the pipe broke" });
    expect(error.message).toBe("the pipe broke");
    await engine.process({ action: "kill", sessionId: id }, ctx);
  });
});

describe("describeError", () => {
  it.each<[ErrorData, string]>([
    [{ code: "input-queue-full", pendingBytes: 42 }, messages.ptyInputQueueFull(42)],
    [{ code: "arguments-too-large", param: "command", bytes: 3_000_000, limitBytes: 2_097_152 },
      messages.argumentsTooLarge(3_000_000, 2_097_152)],
    [{ code: "pty-unavailable", reason: "forkpty failed" }, "forkpty failed"],
    [{ code: "sandbox-unavailable", bwrapPath: "/usr/bin/bwrap", reason: "is not installed or not on PATH" },
      messages.sandboxUnavailable("/usr/bin/bwrap", "is not installed or not on PATH")],
    [{ code: "sandbox-workdir-missing", param: "workdir", cwd: "/gone" }, messages.sandboxWorkdirMissing("/gone")],
    [{ code: "sandbox-workdir-outside", param: "workdir", cwd: "/", roots: ["/srv/app"] },
      'sandbox workdir "/" is outside the sandbox\'s allowed roots ("/srv/app"): command was not executed. Use a workdir ' +
      "inside one of them, or omit workdir to use the default cwd; to allow another directory, add it to the sandbox " +
      "executor's allowedRoots."],
    [{ code: "sandbox-mount-refused", option: "binds[0].source", path: "/srv/cache", problem: "missing" },
      'sandbox option binds[0].source "/srv/cache" does not exist on the host: command was not executed. Create it, ' +
      "or correct or remove it in the sandbox executor's options."],
    [{ code: "sandbox-mount-refused", param: "workdir", option: "workdir", path: "/srv/app", problem: "changed" },
      messages.sandboxMountRefused("workdir", "/srv/app", "changed")],
    [{ code: "invalid-option", owner: "createSandboxExecutor", option: "tmpSizeBytes", value: "-1", expected: "a whole number of bytes, at least 4096" },
      'createSandboxExecutor: tmpSizeBytes must be a whole number of bytes, at least 4096 (got "-1").'],
    [{ code: "sandbox-setup-failed", reason: 'bubblewrap said "Can\'t mount proc on /newroot/proc"' },
      'The sandbox could not be set up: bubblewrap said "Can\'t mount proc on /newroot/proc". The command was not ' +
      "executed. Check the sandbox executor's binds and writable options."],
    [{ code: "ssh-module-missing" }, messages.SSH_MODULE_MISSING],
    [{ code: "unknown-node", param: "node", node: "prod", knownNodes: ["build", "test"] },
      'Unknown node "prod": known nodes are "build", "test".'],
    [{ code: "unknown-node", param: "node", node: undefined, knownNodes: [] },
      'exec host "node" needs the node parameter: known nodes are (none).'],
    [{ code: "node-connect-failed", param: "node", node: "build", reason: "no answer in time" },
      messages.sshConnectFailed("build", "no answer in time")],
    [{ code: "node-misconfigured", node: "a", missing: "host-key" }, messages.nodeHostKeyRequired("a")],
    [{ code: "node-misconfigured", node: "a", missing: "credentials" }, messages.nodeAuthRequired("a")],
    [{ code: "invalid-option", owner: "wakeOnExit", option: "debounceMs", value: "3000000000", expected: messages.timerDelayExpected(2_147_483_647) },
      `wakeOnExit: debounceMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "3000000000").`],
    [{ code: "invalid-option", owner: "wakeOnExit", option: "maxRunsPerMinute", value: "0", expected: "a number of at least 1, or Infinity" },
      'wakeOnExit: maxRunsPerMinute must be a number of at least 1, or Infinity (got "0").'],
    [{ code: "invalid-option", owner: "exec-process-mcp", option: "--http", value: "70000", expected: "a whole number from 0 to 65535" },
      '--http expects a whole number from 0 to 65535 (got "70000").'],
    [{ code: "node-misconfigured", node: "a", invalid: "hostKey", value: "" }, messages.nodeHostKeyInvalid("a", "")],
    [{ code: "node-channel-refused", param: "node", node: "build", reason: "Channel open failure: open failed" },
      messages.sshChannelRefused("build", "Channel open failure: open failed")],
    [{ code: "invalid-option", owner: "createSshExecutor", option: "maxConnections", value: "0", expected: "an integer of at least 1" },
      'createSshExecutor: maxConnections must be an integer of at least 1 (got "0").'],
    [{ code: "http-request-refused", reason: "session-limit", maxSessions: 3 },
      "Service unavailable: this server already has 3 open MCP sessions, its limit (--max-sessions 3). End a session you no longer " +
      "use (DELETE /mcp with its Mcp-Session-Id) or wait until an idle one times out, then initialize again."],
    [{ code: "request-too-large", limitBytes: 4_194_304 },
      "Request too large: this JSON-RPC message is over the server's limit of 4194304 bytes, so it was not read. Send less in one " +
      "call: write long content to a file and pass its path instead."],
    [{ code: "wake-stopped" }, "wakeOnExit was stopped (stop() or engine.dispose()) before a wake run ended: no wake run follows."],
    [{ code: "server-fatal", reason: "stdout: write EPIPE" },
      "fatal error: stdout: write EPIPE. Every MCP session ends with its processes; the server exits with code 1."],
  ])("writes the pinned text of %j", (data, text) => {
    expect(describeError(data)).toBe(text);
    expect(new ExecProcessError(data).message).toBe(text);
  });
});

describe("ExecProcessError.is", () => {
  it("recognizes its errors by brand and, given a code, by code", () => {
    const error = new ExecProcessError({ code: "aborted" });
    expect(ExecProcessError.is(error)).toBe(true);
    expect(ExecProcessError.is(error, "aborted")).toBe(true);
    expect(ExecProcessError.is(error, "engine-disposed")).toBe(false);
    expect(ExecProcessError.is(new Error(messages.ABORTED))).toBe(false);
    expect(ExecProcessError.is({ code: "aborted", message: messages.ABORTED })).toBe(false);
  });

  it("keeps the cause it was given", () => {
    const cause = new Error("spawn /bin/sh ENOENT");
    expect(new ExecProcessError({ code: "spawn-failed", reason: cause.message }, { cause }).cause).toBe(cause);
  });
});
