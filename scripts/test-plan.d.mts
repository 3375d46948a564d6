export interface TestPlan {
  inProcess: number; stdio: number; throughHost: number; mcp: number; vitest: number; toleranceMs: number;
  cores: number; load: number;
}
export const BASELINE: Readonly<Omit<TestPlan, "cores" | "load">>;
export const KNOBS: Readonly<Record<keyof Omit<TestPlan, "cores" | "load">, string>>;
export function testPlan(machine?: { cores?: number; load?: number; env?: Record<string, string | undefined> }): TestPlan;
/**
 * Cores busy with others' work (measured by `measure`, default busyCores), or 0 while the system packages that
 * CI_SYSTEM_PACKAGES names are still installing: that install is the run's own work.
 */
export function loadOfOthers(env?: Record<string, string | undefined>, measure?: () => Promise<number>): Promise<{ load: number; ownInstall: boolean }>;
/** Cores busy with others' work now, measured over `ms` (default 1000). */
export function busyCores(ms?: number): Promise<number>;
/** Cores busy with programs (user, nice, steal) between two samples of /proc/stat's cpu line. */
export function busyBetween(before: number[], after: number[], cores: number): number;
