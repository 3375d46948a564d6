// src/engine/exec/normalize-exec.ts: raw exec arguments to one normalized call (EXEC-01 … EXEC-13, EXEC-21 … EXEC-31).
import { describe, expect, it } from "vitest";
import {
  normalizeExecParams, normalizeTimeoutSeconds, normalizeYieldMs, timeoutMs,
} from "../../src/engine/exec/normalize-exec.js";
import * as messages from "../../src/engine/messages.js";
import {
  DEFAULT_TIMEOUT_SECONDS, MS_PER_SECOND, resolveSettings, SETTINGS_TABLE, YIELD_MAX_MS, YIELD_MIN_MS,
} from "../../src/engine/settings.js";
import type { HostExecutor } from "../../src/engine/types.js";

const settings = resolveSettings({ env: {} });
const local = { scopeKey: "s" };
const executor: HostExecutor = { spawn: () => Promise.reject(new Error("never spawned in these tests")) };
const normalize = (params: Record<string, unknown>, ctx: { scopeKey: string; allowElevated?: boolean } = local,
  executors: { sandbox?: HostExecutor; node?: HostExecutor } = {}) => normalizeExecParams(params, ctx, { settings, executors, cwd: "/" });

describe("normalizeExecParams", () => {
  it("fills every default for a bare command (EXEC-05, EXEC-21, EXEC-25, SET-16)", () => {
    expect(normalize({ command: "echo hi" })).toEqual({
      command: "echo hi", executor: undefined, node: undefined, elevated: false, env: { ok: true, overrides: {} },
      workdir: { ok: true, cwd: "/" },
      pty: false, background: false, yieldMs: SETTINGS_TABLE.yieldMs.defaultValue,
      timeoutSeconds: DEFAULT_TIMEOUT_SECONDS, continuationRequested: false,
    });
  });

  it.each([["missing", {}], ["empty", { command: "" }], ["not a string", { command: 42 }]])(
    "throws the missing-command message for a %s command (EXEC-02)", (_label, params) => {
      expect(() => normalize(params)).toThrow(messages.MISSING_COMMAND);
    });

  it("passes a whitespace-only command through unchanged (EXEC-02)", () => {
    expect(normalize({ command: "   " }).command).toBe("   ");
  });

  it("refuses a NUL byte in the command with its position (EXEC-28)", () => {
    expect(() => normalize({ command: "echo a\u0000b" })).toThrow(messages.nulByteIn("command", 6));
  });

  it.each(["Gateway", "AUTO", "", undefined])("runs host %j locally (EXEC-05, EXEC-07)", (host) => {
    expect(normalize({ command: "true", host }).executor).toBeUndefined();
  });

  it.each(["example.com", "local", 7])("rejects host %j with the allowed values (EXEC-06, EXEC-07)", (host) => {
    expect(() => normalize({ command: "true", host })).toThrow(messages.invalidHost(String(host)));
  });

  it.each(["sandbox", "node"] as const)("rejects host %s without a registered executor (EXEC-08)", (host) => {
    expect(() => normalize({ command: "true", host })).toThrow(messages.hostUnavailable(host));
  });

  it("selects the registered executor and keeps the node name for host node (EXEC-09, EXEC-10)", () => {
    const call = normalize({ command: "true", host: "NODE", node: "builder-1" }, local, { node: executor });
    expect(call.executor).toEqual({ host: "node", instance: executor });
    expect(call.node).toBe("builder-1");
  });

  it("refuses elevated true unless the context allows elevation (EXEC-11, EXEC-12)", () => {
    expect(() => normalize({ command: "true", elevated: true })).toThrow(messages.ELEVATION_UNAVAILABLE);
    expect(normalize({ command: "true", elevated: false }).elevated).toBe(false);
  });

  it("runs an allowed elevated sandbox call locally, but an elevated node call through its executor (EXEC-13)", () => {
    const allowed = { scopeKey: "s", allowElevated: true };
    expect(normalize({ command: "true", host: "sandbox", elevated: true }, allowed).executor).toBeUndefined();
    expect(() => normalize({ command: "true", host: "node", elevated: true }, allowed)).toThrow(messages.hostUnavailable("node"));
  });

  it("checks the command, then the host value, then elevation, then host availability (EXEC-03a)", () => {
    expect(() => normalize({ command: "", host: "bogus", elevated: true })).toThrow(messages.MISSING_COMMAND);
    expect(() => normalize({ command: "x", host: "bogus", elevated: true })).toThrow(messages.invalidHost("bogus"));
    expect(() => normalize({ command: "x", host: "node", elevated: true })).toThrow(messages.ELEVATION_UNAVAILABLE);
  });

  it("checks workdir and env, keeping a refusal as data for the caller to report in EXEC-03a order", () => {
    const call = normalize({ command: "true", workdir: "/no/such/dir", env: { PATH: "/x" } });
    expect(call.workdir).toEqual({ ok: false, requested: "/no/such/dir" });
    expect(call.env.ok).toBe(false);
    expect(!call.env.ok && (call.env.error as Error).message).toBe(messages.PATH_FORBIDDEN);
  });

  it("refuses a NUL byte in workdir with its position, and resolves an executor's workdir unchecked (EXEC-09, EXEC-28)", () => {
    expect(normalize({ command: "true", workdir: "a\u0000b" }).workdir)
      .toEqual({ ok: false, requested: "a\u0000b", text: messages.nulByteIn("workdir", 1) });
    expect(normalize({ command: "true", host: "sandbox", workdir: "remote/dir" }, local, { sandbox: executor }).workdir)
      .toEqual({ ok: true, cwd: "/remote/dir" });
  });

  it.each([
    [{ yieldMs: 0 }, true], [{ background: true }, true], [{ background: false }, false], [{ yieldMs: "100" }, false],
    [{ background: undefined }, false], [{}, false],
  ])("marks %j as a continuation request: %s (EXEC-43)", (params, requested) => {
    expect(normalize({ command: "true", ...params }).continuationRequested).toBe(requested);
  });

  it("reads pty and background only when they are true (EXEC-24, EXEC-25)", () => {
    expect(normalize({ command: "true", pty: "yes", background: 1 })).toMatchObject({ pty: false, background: false });
    expect(normalize({ command: "true", pty: true, background: true })).toMatchObject({ pty: true, background: true });
  });
});

describe("normalizeYieldMs (EXEC-22)", () => {
  it.each([
    [0, YIELD_MIN_MS], [-5, YIELD_MIN_MS], [9.5, YIELD_MIN_MS], [250.5, 250.5], [YIELD_MAX_MS + 1, YIELD_MAX_MS],
    [Number.NaN, 777], [Number.POSITIVE_INFINITY, 777], ["500", 777], [undefined, 777],
  ])("turns %s into %s with a default window of 777", (value, expected) => {
    expect(normalizeYieldMs(value, 777)).toBe(expected);
  });
});

describe("normalizeTimeoutSeconds (EXEC-04, EXEC-29 … EXEC-31)", () => {
  it.each([
    [{}, 1800], [{ timeoutSeconds: 0.5 }, 0.5], [{ timeoutSeconds: 0 }, undefined], [{ timeoutSeconds: -1 }, undefined],
    [{ timeoutSeconds: Number.POSITIVE_INFINITY }, undefined], [{ timeoutSeconds: Number.NaN }, undefined],
    [{ timeout: 7 }, 7], [{ timeoutSeconds: 3, timeout: 7 }, 3], [{ timeoutSeconds: "3" }, 1800], [{ timeout: 0 }, undefined],
  ])("turns %j into %s with a default of 1800 s", (params, expected) => {
    expect(normalizeTimeoutSeconds(params, 1800)).toBe(expected);
  });
});

describe("timeoutMs (EXEC-31)", () => {
  it("converts seconds to whole milliseconds and keeps none as none", () => {
    expect(timeoutMs(0.5)).toBe(0.5 * MS_PER_SECOND);
    expect(timeoutMs(0.0014)).toBe(1);
    expect(timeoutMs(undefined)).toBeUndefined();
  });
});
