// How many workers each step of `npm test` gets, and the timing tolerance T, from the machine's cores and load
// (issue 25): the defaults were tuned on an idle 2-core machine, where the conformance runs mostly wait on sleeping
// commands; a busy machine gets fewer workers and a wider T, a bigger one more workers. Every value can be forced by
// its environment variable (README, Development).
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/**
 * On an idle 2-core machine: workers per run, and T in ms. T covers the load npm test makes itself (about ten
 * runnable processes on the two cores): at 1500 ms, six runs here had four scenarios pass only on retry, each a
 * different upper bound missed by a few hundred ms (EXEC-29, PTY-10, KILL-11, a sandboxed timeout).
 */
export const BASELINE = Object.freeze({
  inProcess: 8, stdio: 8, throughHost: 3, mcp: 6, sessionHost: 6, vitest: 3, toleranceMs: 2000,
});

/** Each knob, by the environment variable that forces it. */
export const KNOBS = Object.freeze({
  inProcess: "CONFORMANCE_PARALLEL",
  stdio: "CONFORMANCE_STDIO_PARALLEL",
  throughHost: "CONFORMANCE_THROUGH_HOST_PARALLEL",
  mcp: "CONFORMANCE_MCP_PARALLEL",
  sessionHost: "CONFORMANCE_SESSION_HOST_PARALLEL",
  vitest: "VITEST_MAX_WORKERS",
  toleranceMs: "CONFORMANCE_TOLERANCE_MS",
});

/**
 * The plan for `cores` cores with a one-minute load average of `load` (work of others already running). The share of
 * the machine left free, from a quarter to four times the baseline's two idle cores, scales the workers; T widens as
 * the machine fills, never narrows below the baseline's.
 */
export function testPlan({ cores = availableParallelism(), load = loadavg()[0], env = process.env } = {}) {
  const free = Math.max(cores - load, cores / 4);
  const scale = Math.min(Math.max(free / 2, 0.25), 4);
  const plan = {};
  for (const [knob, base] of Object.entries(BASELINE)) {
    const scaled = knob === "toleranceMs" ? Math.round(base * Math.max(1, cores / free)) : Math.max(1, Math.round(base * scale));
    const forced = env[KNOBS[knob]];
    plan[knob] = forced !== undefined && /^\d+$/.test(forced) && Number(forced) > 0 ? Number(forced) : scaled;
  }
  return { ...plan, cores, load: Math.round(load * 100) / 100 };
}

/**
 * Cores busy with others' work now: measured over `ms` from /proc/stat, not the one-minute load average, which after
 * `npm ci` still counts the install that just ended. Elsewhere, the load average.
 */
export async function busyCores(ms = 1000) {
  const sample = () => readFileSync("/proc/stat", "latin1").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  try {
    const before = sample();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return busyBetween(before, sample(), availableParallelism());
  } catch {
    return loadavg()[0];
  }
}

/**
 * Cores busy with programs between two samples of /proc/stat's cpu line (user nice system idle iowait irq softirq
 * steal …): user and nice time, and steal (a hypervisor's other guests). The kernel's own time is left out: right
 * after `npm ci` its writeback of node_modules kept 1.7 of 2 cores "busy" for a second, and the run that measured
 * it got a quarter of its workers.
 */
export function busyBetween(before, after, cores) {
  const delta = (index) => (after[index] ?? 0) - (before[index] ?? 0);
  const total = after.slice(0, 8).reduce((sum, value, index) => sum + value - (before[index] ?? 0), 0);
  return total > 0 ? cores * Math.min(1, (delta(0) + delta(1) + delta(7)) / total) : 0;
}
