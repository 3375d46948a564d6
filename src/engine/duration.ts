// Compact duration of list runtimes and the input-wait hint (LIST-04, WAIT-05).

import { MS_PER_SECOND } from "./settings.js";

const SECONDS_PER_MINUTE = 60;
const MINUTES_PER_HOUR = 60;
const HOURS_PER_DAY = 24;

// `<major><unit><rest><restUnit>`, dropping the rest when it is zero (`1m`, not `1m0s`).
const pair = (major: number, unit: string, rest: number, restUnit: string): string =>
  rest === 0 ? `${major}${unit}` : `${major}${unit}${rest}${restUnit}`;

/** LIST-04: `327ms`, `2s` (1502 ms), `1m5s`, `1h1m`, `1d1h`; `n/a` for ≤ 0 or non-finite. */
export function formatCompactDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return "n/a";
  // LIST-04 rounds only after the < 1000 test, so 999.6 ms prints as `1000ms`.
  if (ms < MS_PER_SECOND) return `${Math.round(ms)}ms`;
  const seconds = Math.round(ms / MS_PER_SECOND);
  if (seconds < SECONDS_PER_MINUTE) return `${seconds}s`;
  const minutes = Math.floor(seconds / SECONDS_PER_MINUTE);
  if (minutes < MINUTES_PER_HOUR) return pair(minutes, "m", seconds % SECONDS_PER_MINUTE, "s");
  const hours = Math.floor(minutes / MINUTES_PER_HOUR);
  if (hours < HOURS_PER_DAY) return pair(hours, "h", minutes % MINUTES_PER_HOUR, "m");
  return pair(Math.floor(hours / HOURS_PER_DAY), "d", hours % HOURS_PER_DAY, "h");
}
