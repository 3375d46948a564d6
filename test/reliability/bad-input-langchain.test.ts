// Bad input through the LangChain tools (ExecToolkit, invoked with a ToolCall as an agent does): every call ends in
// a ToolMessage or a clear error — never a crash, a hang, an unhandled rejection, or a stack trace or source path in
// the text the model sees.
import fc from "fast-check";
import { ToolMessage } from "@langchain/core/messages";
import type { StructuredTool } from "@langchain/core/tools";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExecToolkit } from "../../src/index.js";
import { execArgs, leaks, settleWithin, stringsIn, wrongValue } from "./fuzz-arbitraries.js";
import { FuzzTargets, processCall } from "./fuzz-targets.js";
import { disposeEngines, newEngine } from "./helpers.js";

const CALL_DEADLINE_MS = 45_000;
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

/** The argument object itself may be of the wrong kind. */
const execInput = fc.oneof({ weight: 30, arbitrary: execArgs(wrongValue) }, { weight: 1, arbitrary: wrongValue });

let callCount = 0;

/** Invokes as an agent would and checks the model-facing outcome; returns a short label of that outcome. */
async function invokeChecked(tool: StructuredTool, args: unknown): Promise<string> {
  callCount += 1;
  const call = { type: "tool_call" as const, id: `fuzz-${callCount}`, name: tool.name, args: args as Record<string, unknown> };
  const { value, error } = await settleWithin(tool.invoke(call), CALL_DEADLINE_MS, tool.name);
  const inputs = stringsIn(args);
  if (error !== undefined) {
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message.trim()).not.toBe("");
    // What a tool node shows the model: `${error}` (name and message, not the stack).
    expect(leaks(String(error), inputs)).toEqual([]);
    return `error:${(error as Error).name}`;
  }
  expect(value).toBeInstanceOf(ToolMessage);
  const message = value as ToolMessage;
  expect(typeof message.content).toBe("string");
  expect(leaks(String(message.content), inputs)).toEqual([]);
  return `${message.status}`;
}

describe("bad input through the LangChain tools", () => {
  it("exec: any argument object ends in a ToolMessage or a clear error", async () => {
    const toolkit = new ExecToolkit({ engine: newEngine() });
    const outcomes = new Map<string, number>();
    await fc.assert(fc.asyncProperty(execInput, async (args) => {
      const label = await invokeChecked(toolkit.exec, args);
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
    }), { numRuns: 300 });
    // The generator reaches every kind of outcome: successes, returned failures and thrown errors.
    expect([...outcomes.keys()].sort()).toEqual(expect.arrayContaining(["error", "success"]));
    expect([...outcomes.keys()].some((label) => label.startsWith("error:"))).toBe(true);
  }, 240_000);

  it("process: any action and arguments on running, PTY, finished and unknown sessions", async () => {
    const engine = newEngine();
    const toolkit = new ExecToolkit({ engine });
    const targets = new FuzzTargets(engine);
    const outcomes = new Map<string, number>();
    await fc.assert(fc.asyncProperty(processCall(wrongValue), async ({ target, args }) => {
      await targets.ensure();
      const id = target === "none" ? args["sessionId"] : targets.ids.get(target);
      const label = await invokeChecked(toolkit.process!, { ...args, ...(id !== undefined ? { sessionId: id } : {}) });
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
    }), { numRuns: 400 });
    expect(outcomes.get("success") ?? 0).toBeGreaterThan(0);
    expect(outcomes.get("error") ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
