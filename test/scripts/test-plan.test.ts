// npm test's workers and T follow the machine (scripts/test-plan.mjs): the baseline on an idle 2-core machine.
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { BASELINE, busyBetween, busyCores, loadOfOthers, testPlan } from "../../scripts/test-plan.mjs";

describe("testPlan", () => {
  it("is the baseline on an idle 2-core machine", () => {
    expect(testPlan({ cores: 2, load: 0, env: {} })).toEqual({ ...BASELINE, cores: 2, load: 0 });
  });

  it("halves the workers and doubles T on a 2-core machine with one core's work running", () => {
    expect(testPlan({ cores: 2, load: 1, env: {} })).toEqual({
      inProcess: 3, stdio: 3, throughHost: 2, mcp: 2, sessionHost: 2, vitest: 2, toleranceMs: 4000, cores: 2, load: 1,
    });
  });

  it("keeps a quarter of the machine's workers however high the load, and at least one worker", () => {
    expect(testPlan({ cores: 2, load: 40, env: {} })).toEqual({
      inProcess: 2, stdio: 2, throughHost: 1, mcp: 1, sessionHost: 1, vitest: 1, toleranceMs: 8000, cores: 2, load: 40,
    });
  });

  it("gives an idle 8-core machine four times the workers and the baseline's T", () => {
    expect(testPlan({ cores: 8, load: 0, env: {} })).toMatchObject({ inProcess: 24, stdio: 24, throughHost: 12, mcp: 16, sessionHost: 16, vitest: 12, toleranceMs: 2000 });
  });

  it("takes a forced value from its environment variable, and ignores one that is not a positive whole number", () => {
    const plan = testPlan({ cores: 2, load: 0, env: { CONFORMANCE_PARALLEL: "3", CONFORMANCE_TOLERANCE_MS: "2500", VITEST_MAX_WORKERS: "0", CONFORMANCE_MCP_PARALLEL: "x" } });
    expect(plan).toMatchObject({ inProcess: 3, toleranceMs: 2500, vitest: 3, mcp: 4 });
  });

  it("counts programs' time and steal as busy, and the kernel's own time (writeback after npm ci) and iowait as free", () => {
    //            user nice system idle iowait irq softirq steal
    const before = [1000, 0, 500, 9000, 100, 0, 50, 0];
    expect(busyBetween(before, [1000, 0, 1350, 9100, 200, 0, 100, 0], 2)).toBe(0); // writeback: 1.7 of 2 cores "busy"
    expect(busyBetween(before, [1500, 0, 500, 9500, 100, 0, 50, 0], 2)).toBe(1); // a program on one core
    expect(busyBetween(before, [1250, 0, 500, 9500, 100, 0, 50, 250], 2)).toBe(1); // half of it stolen
    expect(busyBetween(before, before, 2)).toBe(0);
  });

  it("measures busy cores between none and all of them, and sees a core kept busy", async () => {
    const spin = (ms: number) => { const end = Date.now() + ms; while (Date.now() < end); };
    const measuring = busyCores(300);
    spin(250); // this process keeps one core busy during the measurement
    const busy = await measuring;
    expect(busy).toBeGreaterThanOrEqual(0.5);
    expect(busy).toBeLessThanOrEqual(availableParallelism());
  });
});

describe("loadOfOthers", () => {
  const measured = async (): Promise<number> => 1.5;

  it("counts nothing while the system packages of .ci/run are installing (their status file not yet written)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "load-of-others-"));
    try {
      const status = join(dir, "status");
      expect(await loadOfOthers({ CI_SYSTEM_PACKAGES: status }, measured)).toEqual({ load: 0, ownInstall: true });
      writeFileSync(status, "0\n");
      expect(await loadOfOthers({ CI_SYSTEM_PACKAGES: status }, measured)).toEqual({ load: 1.5, ownInstall: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("measures the machine when no install runs beside npm test", async () => {
    expect(await loadOfOthers({}, measured)).toEqual({ load: 1.5, ownInstall: false });
  });
});
