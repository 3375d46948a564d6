// The kit never starts more worker processes than selected scenarios: each worker loads the kit and the
// implementation, and thirteen one-scenario kits at the default of 8 workers each once took a loaded machine's
// load average to 100. One worker is the kit's own process. The fixture adapter notes the pid of every process that
// loads it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAdapterSource } from "./helpers/fixture-adapter.js";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * Notes the pid of every process that loads it, and keeps a timer running as an implementation may (a reused
 * process, a pool): a kit that ran the scenarios in its own process must still exit.
 */
const adapter = (pidsFile: string): string => fixtureAdapterSource([
  'import { appendFileSync } from "node:fs";',
  `appendFileSync(${JSON.stringify(pidsFile)}, process.pid + "\\n");`,
  "setInterval(() => undefined, 60_000);",
].join("\n"));

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

/** Runs the kit on the fixture feature; resolves to its exit code and how many other processes loaded the adapter. */
async function runKit(parallel: string, paths: string): Promise<{ code: unknown; workers: number }> {
  rmSync(join(dir, "pids"), { force: true });
  const kit = spawn(process.execPath, [
    "conformance/bin.mjs", "--parallel", parallel, "--adapter", join(dir, "adapter.mjs"), "--paths", join(dir, paths),
  ], { cwd: ROOT, stdio: "ignore", timeout: 30_000 });
  const code = await new Promise((resolve) => kit.once("exit", (exitCode, signal) => resolve(exitCode ?? signal)));
  // The kit's own process loads the adapter too, for the report's adapter name.
  const workers = new Set(readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number).filter((pid) => pid !== kit.pid));
  return { code, workers: workers.size };
}

describe("the kit's workers", () => {
  it("are as many as the selected scenarios when --parallel asks for more", async () => {
    expect(await runKit("8", "features/fixture.feature")).toEqual({ code: 0, workers: 2 });
  }, 90_000);

  it.each([
    ["--parallel 1", "1", "features/fixture.feature"],
    ["one selected scenario", "8", "features/fixture.feature:4"],
  ])("are none with %s: the scenarios run in the kit's own process, which then exits", async (_label, parallel, paths) => {
    expect(await runKit(parallel, paths)).toEqual({ code: 0, workers: 0 });
  }, 90_000);
});
