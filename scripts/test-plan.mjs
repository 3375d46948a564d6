// How many workers each step of `npm test` gets, and the timing tolerance T, from the machine's cores and load
// (issue 25): the defaults were tuned on an idle 2-core machine, where the conformance runs mostly wait on sleeping
// commands; a busy machine gets fewer workers and a wider T, a bigger one more workers. Every value can be forced by
// its environment variable (README, Development).
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/**
 * On an idle 2-core machine: workers per run, and T in ms. T covers the load npm test makes itself (about ten
 * runnable processes on the two cores): at 1500 ms, six runs here had four scenarios pass only on retry, each a
 * different upper bound missed by a few hundred ms (EXEC-29, PTY-10, KILL-11, a sandboxed timeout).
 * The whole run keeps both cores busy, so each worker (a process that loads the kit and an implementation) costs the
 * run its CPU: with 6 in-process, 6 stdio, 4 MCP and 4 session-host workers instead of 8, 8, 6 and 6, the passes still
 * end with the unit tests, and a fresh machine's run took 382–406 s instead of 416 (issue 36, bench/README.md).
 */
export const BASELINE = Object.freeze({
  inProcess: 6, stdio: 6, throughHost: 3, mcp: 4, sessionHost: 4, vitest: 3, toleranceMs: 2000,
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
 * The cores busy with others' work, for testPlan, and whether the system packages that .ci/run installs beside
 * npm test are still installing (CI_SYSTEM_PACKAGES names the file their exit status lands in). That install is the
 * run's own work and ends within a minute, while the passes run for minutes: while it runs, nothing is measured and
 * the machine counts as idle. Measured with it, a fresh run got 5 in-process and stdio workers instead of 6, and
 * those passes ended about 40 s later than with 6 (issue 36, bench/README.md).
 */
export async function loadOfOthers(env = process.env, measure = busyCores) {
  const ownInstall = Boolean(env.CI_SYSTEM_PACKAGES) && !existsSync(env.CI_SYSTEM_PACKAGES);
  return { load: ownInstall ? 0 : await measure(), ownInstall };
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
