// Bad input through the engine API directly, where no schema stands in front: wrong types, NaN and ±Infinity, huge
// and negative numbers, empty and huge strings, unicode, null, symbols, bigints, functions and unknown keys. Every
// call resolves to a result or rejects with a clear Error — never a crash, a hang or an unhandled rejection.
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CallContext, ToolResult } from "../../src/engine/index.js";
import { execArgs, exoticValue, leaks, settleWithin, stringsIn } from "./fuzz-arbitraries.js";
import { FuzzTargets, processCall } from "./fuzz-targets.js";
import { ctx, disposeEngines, newEngine } from "./helpers.js";

const CALL_DEADLINE_MS = 45_000;
const STATUSES = ["completed", "failed", "running"];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  await disposeEngines();
  expect(unhandled.splice(0)).toEqual([]);
});

/** Checks one engine call: a well-formed result (RES-01) or an Error with a clean message. */
async function callChecked(call: Promise<ToolResult>, args: unknown, label: string): Promise<string> {
  const { value, error } = await settleWithin(call, CALL_DEADLINE_MS, label);
  const inputs = stringsIn(args);
  if (error !== undefined) {
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message.trim()).not.toBe("");
    expect(leaks(String(error), inputs)).toEqual([]);
    return "thrown";
  }
  const result = value as ToolResult;
  expect(result.content).toHaveLength(1);
  expect(result.content[0].type).toBe("text");
  expect(typeof result.content[0].text).toBe("string");
  expect(STATUSES).toContain(result.details.status);
  expect(leaks(result.content[0].text, inputs)).toEqual([]);
  return result.details.status;
}

const callContext = fc.record({
  processToolAvailable: fc.constantFrom(undefined, true, false),
  allowElevated: fc.constantFrom(undefined, false, true),
});

describe("bad input through the engine API", () => {
  it("exec: hostile values of every type end in a result or a clear error", async () => {
    const engine = newEngine();
    const seen = new Set<string>();
    const input = fc.oneof({ weight: 30, arbitrary: execArgs(exoticValue) }, { weight: 1, arbitrary: fc.constant({}) });
    await fc.assert(fc.asyncProperty(input, callContext, async (args, extra) => {
      const callCtx: CallContext = { ...ctx, ...extra } as CallContext;
      seen.add(await callChecked(engine.exec(args, callCtx), args, "exec"));
    }), { numRuns: 300 });
    expect([...seen].sort()).toEqual(["completed", "failed", "running", "thrown"]);
  }, 300_000);

  it("process: hostile values on running, PTY, finished and unknown sessions", async () => {
    const engine = newEngine();
    const targets = new FuzzTargets(engine);
    const seen = new Set<string>();
    await fc.assert(fc.asyncProperty(processCall(exoticValue), async ({ target, args }) => {
      await targets.ensure();
      const id = target === "none" ? args["sessionId"] : targets.ids.get(target);
      const full = { ...args, ...(id !== undefined ? { sessionId: id } : {}) };
      seen.add(await callChecked(engine.process(full, ctx), full, "process"));
    }), { numRuns: 400 });
    expect(seen).toContain("failed");
    expect(seen).toContain("running");
  }, 300_000);

  it("calls after dispose() reject with the disposal error instead of touching dead state (KILL-15)", async () => {
    const engine = newEngine();
    await engine.dispose();
    await fc.assert(fc.asyncProperty(execArgs(exoticValue), async (args) => {
      await expect(engine.exec(args, ctx)).rejects.toThrow(/disposed/);
      await expect(engine.process({ action: "list", ...args }, ctx)).rejects.toThrow(/disposed/);
    }), { numRuns: 50 });
  });
});
