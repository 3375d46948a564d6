// The kit's console output: scenario progress (a live line on a terminal, plain lines otherwise) and cucumber's
// summary. The kit runs in a child process on a two-scenario fixture, once behind a pseudo-terminal.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pty from "node-pty";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAdapterSource } from "./helpers/fixture-adapter.js";

const ROOT = new URL("../..", import.meta.url).pathname;

const ADAPTER = fixtureAdapterSource();

const FEATURE = `Feature: fixture

  @SET-01 @doc
  Scenario: passes
    When exec runs "echo hi"
    Then the text is "hi"

  @SET-10 @doc
  Scenario: fails
    When exec runs "echo hi"
    Then the text is "bye"
`;

const SLOW_FEATURE = `Feature: slow fixture

  @SET-02 @doc @slow
  Scenario: tagged slow
    When exec runs "echo hi"
    Then the text is "hi"
`;

let dir = "";
const kitArgs = (): string[] => ["conformance/bin.mjs", "--adapter", join(dir, "adapter.mjs"), "--paths", join(dir, "features/fixture.feature")];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cli-progress-test-"));
  mkdirSync(join(dir, "features"));
  writeFileSync(join(dir, "adapter.mjs"), ADAPTER);
  writeFileSync(join(dir, "features/fixture.feature"), FEATURE);
  writeFileSync(join(dir, "features/slow.feature"), SLOW_FEATURE);
  // An implementation that takes 3 s to load.
  writeFileSync(join(dir, "slow-adapter.mjs"), fixtureAdapterSource("await new Promise((resolve) => setTimeout(resolve, 3000));"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the kit's console output", () => {
  it("prints plain progress lines and one line per failed scenario when stdout is not a terminal", async () => {
    const stdout = await new Promise<string>((resolve) => {
      execFile(process.execPath, kitArgs(), { cwd: ROOT, timeout: 90_000 }, (_error, out) => resolve(out));
    });
    expect(stdout).not.toContain("\u001b[K");
    expect(stdout).toContain(`Feature files (1): ${join(dir, "features/fixture.feature")}\n`);
    // no @slow scenario was selected: the banner does not promise one (issue 35)
    expect(stdout).toMatch(/^2 scenarios to run\.$/m);
    expect(stdout).not.toContain("@slow");
    expect(stdout).not.toContain("left");
    expect(stdout).toMatch(/^failed: .*fixture\.feature: fails \(SET-10\)$/m); // the rule it checks, by ID (issue 37)
    expect(stdout).toMatch(/^2\/2 scenarios · 1 failed · \d+s elapsed$/m);
    expect(stdout).toContain("2 scenarios (1 failed, 1 passed)");
    expect(stdout).toMatch(/^All rules +\d+ +1 +1 /m);
    expect(stdout).toMatch(/^Partial run: 2 of \d+ rules selected$/m);
    expect(stdout).toContain("No report was kept: give --report <dir> for compliance.md, documentation.html and the other reports.");
  }, 120_000);

  it("says first what it selected, and without a terminal prints a progress line after any interval without one (issue 37)", async () => {
    const args = ["conformance/bin.mjs", "--adapter", join(dir, "slow-adapter.mjs"), "--paths", join(dir, "features/fixture.feature")];
    const stdout = await new Promise<string>((resolve) => {
      execFile(process.execPath, args, { cwd: ROOT, timeout: 90_000, env: { ...process.env, CONFORMANCE_HEARTBEAT_MS: "1000" } }, (_error, out) => resolve(out));
    });
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^Selected 2 scenarios from 1 feature file; starting [12] workers? and the implementation…$/);
    const beat = lines.findIndex((line) => /^0\/2 scenarios · 0 failed · \d+s elapsed$/.test(line));
    expect(beat).toBeGreaterThan(0);
    expect(lines.findIndex((line) => /^2\/2 scenarios · 1 failed · \d+s elapsed$/.test(line))).toBeGreaterThan(beat);
  }, 120_000);

  it("says that the @slow scenarios start first only when some were selected, and lists every feature file loaded", async () => {
    const stdout = await new Promise<string>((resolve) => {
      execFile(process.execPath, [...kitArgs(), "--paths", join(dir, "features/slow.feature")], { cwd: ROOT, timeout: 90_000 }, (_error, out) => resolve(out));
    });
    // the list wraps at 100 columns
    expect(stdout.replace(/,\n {2}/g, ", ")).toContain(`Feature files (2): ${join(dir, "features/fixture.feature")}, ${join(dir, "features/slow.feature")}\n`);
    expect(stdout).toMatch(/^3 scenarios to run; the @slow one starts first, so the first results can take minutes\.$/m);
  }, 120_000);

  it("rewrites one live progress line on a terminal, then prints the summary", async () => {
    const output = await new Promise<string>((resolve) => {
      let text = "";
      const child = pty.spawn(process.execPath, kitArgs(), { cwd: ROOT, cols: 200, rows: 40, env: { ...process.env, FORCE_COLOR: "0" } as Record<string, string> });
      child.onData((chunk) => void (text += chunk));
      child.onExit(() => resolve(text));
    });
    expect(output).toContain("Feature files (1): ");
    expect(output).toMatch(/\r\u001b\[K0\/2 scenarios · 0 failed · \d+s elapsed/);
    // Two scenarios are too few for an honest estimate of the rest: none is shown.
    expect(output).toMatch(/\r\u001b\[K1\/2 scenarios · [01] failed · \d+s elapsed\r/);
    expect(output).not.toContain("left");
    expect(output).toMatch(/\r\u001b\[K2\/2 scenarios · 1 failed · \d+s elapsed/);
    expect(output).not.toMatch(/^failed: /m);
    expect(output).toContain("2 scenarios (1 failed, 1 passed)");
  }, 120_000);
});
