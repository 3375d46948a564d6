// Delays that embedders configure and that reach Node's timers. A timer longer than 2^31 − 1 ms does not wait
// longer: Node warns (TimeoutOverflowWarning) and fires it after 1 ms, so such a delay is refused, never clamped.
import { ExecProcessError, type OptionOwner } from "./errors.js";
import { timerDelayExpected } from "./messages.js";
import { TIMER_MAX_MS } from "./settings.js";

/**
 * `value` when it is a number of milliseconds from 0 to TIMER_MAX_MS (about 24.8 days); otherwise throws an
 * invalid-option ExecProcessError naming `owner` and `option` (issue 20).
 */
export function validateTimerDelay(owner: OptionOwner, option: string, value: unknown): number {
  if (typeof value === "number" && value >= 0 && value <= TIMER_MAX_MS) return value; // NaN fails both tests
  throw new ExecProcessError({ code: "invalid-option", owner, option, value: String(value), expected: timerDelayExpected(TIMER_MAX_MS) });
}
