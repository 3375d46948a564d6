// The kit's survivor check (step-definitions/support/survivors.ts) finds a scenario's processes by the marker
// variable in their environment, whatever its place there: also past the first 64 KB, where it reads in chunks.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { findSurvivors, killSurvivors, markPids, pidWindow } from "../../step-definitions/support/survivors.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** A `sleep` whose environment is exactly `env`, in that order; resolves once it runs. */
async function sleeper(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn("/bin/sleep", ["30"], { env, stdio: "ignore" });
  started.push(child);
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return child;
}

describe("findSurvivors", () => {
  it("finds a process whose marker variable starts anywhere around the 64 KB chunk edges", async () => {
    const marker = randomUUID();
    // "PAD=" + padding + NUL puts the marker's entry at byte padding + 5 of the environment.
    const paddings = [10, 65_500, 65_520, 65_525, 65_529, 65_530, 65_531, 65_540, 131_060];
    const children = await Promise.all(paddings.map((n) => sleeper({ PAD: "x".repeat(n), CONFORMANCE_SCENARIO: marker })));
    const found = await findSurvivors(marker);
    expect(found.map((s) => s.pid).sort()).toEqual(children.map((c) => c.pid).sort());
    expect(found.every((s) => s.command === "/bin/sleep 30")).toBe(true);
  });

  it("finds the marker as the first variable, and not as part of another variable or a longer value", async () => {
    const marker = randomUUID();
    const first = await sleeper({ CONFORMANCE_SCENARIO: marker, OTHER: "1" });
    await sleeper({ COPY: `CONFORMANCE_SCENARIO=${marker}` });
    await sleeper({ CONFORMANCE_SCENARIO: `${marker}-more` });
    await sleeper({ XCONFORMANCE_SCENARIO: marker });
    expect((await findSurvivors(marker)).map((s) => s.pid)).toEqual([first.pid]);
  });

  it("finds nothing once the processes are killed", async () => {
    const marker = randomUUID();
    await sleeper({ CONFORMANCE_SCENARIO: marker });
    const found = await findSurvivors(marker);
    expect(found).toHaveLength(1);
    killSurvivors(found);
    expect(await findSurvivors(marker)).toEqual([]);
  });

  it("finds with a pid mark what began after it, and leaves out what began before", async () => {
    const marker = randomUUID();
    const before = await sleeper({ CONFORMANCE_SCENARIO: marker });
    const mark = markPids();
    expect(mark?.lastPid).toBeGreaterThanOrEqual(before.pid!);
    const after = await sleeper({ CONFORMANCE_SCENARIO: marker });
    expect((await findSurvivors(marker, mark)).map((s) => s.pid)).toEqual([after.pid]);
    expect((await findSurvivors(marker)).map((s) => s.pid).sort()).toEqual([before.pid, after.pid].sort());
  });
});

describe("pidWindow", () => {
  const at = 1_000_000;
  const younger = (from: number, last: number, pids: number[], now = at + 1): number[] =>
    pids.filter(pidWindow({ lastPid: from, at }, last, now));

  it("takes the pids after the mark up to the last one handed out", () => {
    expect(younger(100, 200, [50, 100, 101, 200, 201])).toEqual([101, 200]);
  });

  it("takes the pids on both sides of a wrap at pid_max", () => {
    expect(younger(32_000, 50, [10, 50, 51, 31_999, 32_000, 32_001, 32_767])).toEqual([10, 50, 32_001, 32_767]);
  });

  it("takes every pid after ten seconds, in which the pids could have wrapped twice, or without a mark", () => {
    expect(younger(100, 200, [50, 150, 250], at + 10_001)).toEqual([50, 150, 250]);
    expect([1, 2].filter(pidWindow(undefined, 5))).toEqual([1, 2]);
    expect([1, 2].filter(pidWindow({ lastPid: 1, at }, undefined, at))).toEqual([1, 2]);
  });
});
