// src/engine/spawn/exec-limits.ts: requests that execve(2) would refuse (E2BIG) get a clear text before any backend
// is chosen, so pipes and PTY fail alike (EXEC-03: nothing is spawned).
import { describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { execLimitError, MAX_ARG_STRLEN_BYTES } from "../../src/engine/spawn/exec-limits.js";
import type { SpawnRequest } from "../../src/engine/spawn/child-handle.js";

const request = (command: string, env: Record<string, string> = { A: "1" }): SpawnRequest =>
  ({ shell: "/bin/sh", args: ["-c"], command, cwd: "/", env });
const POINTER_BYTES = 8;

describe.runIf(process.platform === "linux")("execLimitError", () => {
  it("accepts an ordinary request", () => {
    expect(execLimitError(request("echo hi"))).toBeUndefined();
  });

  it("accepts a command one byte under MAX_ARG_STRLEN and refuses one at it, with its byte count", () => {
    expect(execLimitError(request("x".repeat(MAX_ARG_STRLEN_BYTES - 1)))).toBeUndefined();
    expect(execLimitError(request("é".repeat(MAX_ARG_STRLEN_BYTES / 2)))?.message)
      .toBe(messages.argumentTooLarge("command", MAX_ARG_STRLEN_BYTES, MAX_ARG_STRLEN_BYTES));
  });

  it("refuses one environment entry over MAX_ARG_STRLEN and names its variable", () => {
    const value = "v".repeat(MAX_ARG_STRLEN_BYTES);
    expect(execLimitError(request("true", { BIG: value }))?.message)
      .toBe(messages.argumentTooLarge('env "BIG"', `BIG=${value}`.length, MAX_ARG_STRLEN_BYTES));
  });

  it("refuses a command and environment that together exceed ARG_MAX, stating the total and the limit", () => {
    const env = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`K${i}`, "v".repeat(100_000)]));
    const req = request("true", env);
    const strings = [req.shell, ...req.args, req.command, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)];
    const total = strings.reduce((sum, s) => sum + Buffer.byteLength(s) + 1 + POINTER_BYTES, 0);
    const text = execLimitError(req)?.message;
    const limit = Number(/limit of (\d+) bytes/.exec(text ?? "")?.[1]);
    expect(limit).toBeGreaterThanOrEqual(131_072); // the kernel's floor, ARG_MAX of limits.h
    expect(limit).toBeLessThanOrEqual(6 * 1024 * 1024); // three quarters of _STK_LIM
    expect(text).toBe(messages.argumentsTooLarge(total, limit));
  });
});
