// The kit never starts more worker processes than selected scenarios: each worker loads the kit and the
// implementation, and thirteen one-scenario kits at the default of 8 workers each once took a loaded machine's
// load average to 100. One worker is the kit's own process. Each closes the adapter once, after its last scenario
// (ConformanceAdapter.close: what it kept across scenarios, such as a container, ends before the process does). The
// fixture adapter notes the pid of every process that loads it, disposes an instance or closes it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAdapterSource } from "./helpers/fixture-adapter.js";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * Notes `load <pid>`, `dispose <pid>` and `close <pid>`, and keeps a timer running as an implementation may (a reused
 * process, a pool): a kit that ran the scenarios in its own process must still exit.
 */
const adapter = (pidsFile: string): string => {
  const note = (what: string): string => `appendFileSync(${JSON.stringify(pidsFile)}, "${what} " + process.pid + "\\n");`;
  return fixtureAdapterSource(['import { appendFileSync } from "node:fs";', note("load"), "setInterval(() => undefined, 60_000);"].join("\n"),
    { dispose: note("dispose"), close: note("close") });
};

const FEATURE = `Feature: fixture

  @SET-01 @doc
  Scenario: one
    When exec runs "echo hi"
    Then the text is "hi"

  @SET-10 @doc
  Scenario: two
    When exec runs "echo hi"
    Then the text is "hi"
`;

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worker-cap-test-"));
  mkdirSync(join(dir, "features"));
  writeFileSync(join(dir, "adapter.mjs"), adapter(join(dir, "pids")));
  writeFileSync(join(dir, "features/fixture.feature"), FEATURE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface KitRun { code: unknown; workers: number; kitLoadedAdapter: boolean; closedOnceAfterLastScenario: boolean }

/**
 * Runs the kit on the fixture feature; resolves to its exit code, how many other processes loaded the adapter,
 * whether the kit's own process did, and whether every process that loaded it closed it once, as its last note.
 */
async function runKit(parallel: string, paths: string, report?: string): Promise<KitRun> {
  rmSync(join(dir, "pids"), { force: true });
  const kit = spawn(process.execPath, [
    "conformance/bin.mjs", "--parallel", parallel, "--adapter", join(dir, "adapter.mjs"), "--paths", join(dir, paths),
    ...(report ? ["--report", report] : []),
  ], { cwd: ROOT, stdio: "ignore", timeout: 30_000 });
  const code = await new Promise((resolve) => kit.once("exit", (exitCode, signal) => resolve(exitCode ?? signal)));
  const notes = readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map((line) => line.split(" "));
  const pids = [...new Set(notes.filter(([what]) => what === "load").map(([, pid]) => Number(pid)))];
  // A worker may get no scenario (the other took both): it closes the adapter all the same.
  const closedOnceAfterLastScenario = pids.every((pid) => {
    const own = notes.filter(([, notePid]) => Number(notePid) === pid).map(([what]) => what);
    return own.filter((what) => what === "close").length === 1 && own.at(-1) === "close";
  });
  return { code, workers: pids.filter((pid) => pid !== kit.pid).length, kitLoadedAdapter: pids.includes(kit.pid!), closedOnceAfterLastScenario };
}

describe("the kit's workers", () => {
  it("are as many as the selected scenarios when --parallel asks for more", async () => {
    expect(await runKit("8", "features/fixture.feature")).toMatchObject({ code: 0, workers: 2, closedOnceAfterLastScenario: true });
  }, 90_000);

  // Issue 36: the kit's process loaded the adapter module only for the report's adapter name, 0.4 s of CPU for the
  // adapter of the executors; the workers that load it say its name.
  it("say the adapter's name for the report, which the kit's own process then does not load", async () => {
    const report = join(dir, "report");
    expect(await runKit("8", "features/fixture.feature", report)).toEqual({ code: 0, workers: 2, kitLoadedAdapter: false, closedOnceAfterLastScenario: true });
    const matrix = JSON.parse(readFileSync(join(report, "compliance.json"), "utf8")) as { run: { adapterName: string } };
    expect(matrix.run.adapterName).toBe("fixture");
  }, 90_000);

  it.each([
    ["--parallel 1", "1", "features/fixture.feature"],
    ["one selected scenario", "8", "features/fixture.feature:4"],
  ])("are none with %s: the scenarios run in the kit's own process, which then exits", async (_label, parallel, paths) => {
    expect(await runKit(parallel, paths)).toEqual({ code: 0, workers: 0, kitLoadedAdapter: true, closedOnceAfterLastScenario: true });
  }, 90_000);
});
