// npm test names the failed tests and the tests that passed only on retry above its totals (scripts/vitest-report.mjs),
// read from the JSON report of a real vitest run with --retry=1.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedTests, firstErrorLine, testsPassedOnRetry, type VitestReport } from "../../scripts/vitest-report.mjs";

const VITEST = new URL("../../node_modules/vitest/vitest.mjs", import.meta.url).pathname;

const FLAKY = `
let attempts = 0;
describe("a suite", () => {
  it("fails once, then passes", () => {
    attempts += 1;
    expect(attempts, "first attempt").toBe(2);
  });
  it("always fails", () => {
    expect("got", "every attempt").toBe("wanted");
  });
  it("passes", () => {
    expect(1).toBe(1);
  });
});
`;

describe("vitest's JSON report, read for npm test's totals", () => {
  let folder: string;
  let report: VitestReport;
  let printed: string;

  beforeAll(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), "vitest-report-")));
    writeFileSync(join(folder, "flaky.test.js"), FLAKY);
    writeFileSync(join(folder, "broken.test.js"), `throw new Error("the file cannot load");\n`);
    const run = spawnSync(process.execPath, [
      VITEST, "run", "--root", folder, "--globals", "--retry=1", "--reporter=default", "--reporter=json",
      `--outputFile.json=${join(folder, "report.json")}`,
    ], { cwd: folder, encoding: "utf8", timeout: 60_000, env: { ...process.env, FORCE_COLOR: "1" } });
    printed = `${run.stdout}${run.stderr}`;
    expect(run.status, run.stderr).toBe(1);
    report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8")) as VitestReport;
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("names each failed test with its error's first line, and a file that failed to load with its error", () => {
    expect(failedTests(report, folder).sort()).toEqual([
      "broken.test.js: the file cannot load",
      "flaky.test.js > a suite always fails: AssertionError: every attempt: expected 'got' to be 'wanted' // Object.is equality",
    ]);
  });

  it("names the test that passed only on its retry, with the first attempt's error", () => {
    expect(testsPassedOnRetry(report, folder)).toEqual([
      "flaky.test.js > a suite fails once, then passes (first: AssertionError: first attempt: expected 1 to be 2 // Object.is equality)",
    ]);
  });

  it("finds the first error line in what the run printed, without its colours", () => {
    expect(printed).toContain("\x1b[");
    expect(firstErrorLine(printed)).toBe("Error: the file cannot load");
    expect(firstErrorLine("\x1b[32m✓\x1b[39m all passed\n")).toBe("no error line in its output");
  });

  it("gives a path from the repository's last test/ folder when the run saw the clone elsewhere", () => {
    const moved: VitestReport = { testResults: [{ name: "/tmp/elsewhere/repo/test/security/ssh.test.ts", status: "failed", assertionResults: [
      { fullName: "dispose", status: "failed", failureMessages: ["\nError: late\n    at x"] },
    ] }] };
    expect(failedTests(moved, "/work/main")).toEqual(["test/security/ssh.test.ts > dispose: Error: late"]);
  });
});
