// src/engine/timer-delay.ts: a delay that reaches a Node.js timer is 0 … 2147483647 ms, or an invalid-option error.
import { describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import { timerDelayExpected } from "../../src/engine/messages.js";
import { TIMER_MAX_MS } from "../../src/engine/settings.js";
import { validateTimerDelay } from "../../src/engine/timer-delay.js";

describe("validateTimerDelay", () => {
  it.each([0, 0.5, 250, TIMER_MAX_MS])("returns %d unchanged", (value) => {
    expect(validateTimerDelay("wakeOnExit", "debounceMs", value)).toBe(value);
  });

  it.each([
    [TIMER_MAX_MS + 1, "2147483648"], [3e9, "3000000000"], [-1, "-1"], [Number.NaN, "NaN"], [Infinity, "Infinity"],
    ["250", "250"], [undefined, "undefined"],
  ])("refuses %s with an invalid-option error that names the owner, the option and the value", (value, shown) => {
    let thrown: unknown;
    try {
      validateTimerDelay("createSshExecutor", "connectTimeoutMs", value);
    } catch (error) {
      thrown = error;
    }
    expect(ExecProcessError.is(thrown, "invalid-option")).toBe(true);
    expect(thrown).toMatchObject({
      data: { code: "invalid-option", owner: "createSshExecutor", option: "connectTimeoutMs", value: shown, expected: timerDelayExpected(TIMER_MAX_MS) },
      message: `createSshExecutor: connectTimeoutMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "${shown}").`,
    });
  });
});
