// `npm run demo` runs offline in a child process, exits 0 and prints the whole flow as a readable transcript.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Run { code: number | null; stdout: string; stderr: string }

function runDemo(): Promise<Run> {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: "" };
    execFile("npm", ["run", "--silent", "demo"], { cwd: root, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run demo", () => {
  let run: Run;
  beforeAll(async () => {
    run = await runDemo();
  }, 120_000);

  it("exits 0 without an error on stderr", () => {
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
  });

  it("starts a background build with exec and polls it", () => {
    expect(run.stdout).toContain("user Build the project, then run the plugin installer and answer yes.");
    expect(run.stdout).toContain(`assistant calls exec {"command":"echo 'compiling 3 modules...'; sleep 1.5; echo 'build ok: dist/app.js'","background":true}`);
    expect(run.stdout).toMatch(/tool exec → success\n {4}Command still running \(session [a-z0-9-]+, pid \d+\)\. Use process/);
    expect(run.stdout).toMatch(/assistant calls process \{"action":"poll","sessionId":"[a-z0-9-]+","timeout":5000\}\ntool process → success\n {4}compiling 3 modules\.\.\.\n {4}\n {4}Process still running\./);
  });

  it("answers the PTY prompt with write and submit", () => {
    expect(run.stdout).toMatch(/ {4}Install plugins\? \[y\/N\]\n/);
    expect(run.stdout).toMatch(/ {4}Wrote 1 bytes to session [a-z0-9-]+\./);
    expect(run.stdout).toMatch(/ {4}Submitted session [a-z0-9-]+ \(sent CR\)\./);
  });

  it("delivers both completion notices through the middleware on the next turn", () => {
    expect(run.stdout).toMatch(/wake requested for session [a-z0-9-]+ \(scope agent:builder\)/);
    expect(run.stdout).toContain("system event (delivered by the middleware before the model call)");
    expect(run.stdout).toMatch(/System: Exec completed \([a-z0-9-]{1,8}, code 0\) :: compiling 3 modules\.\.\. build ok: dist\/app\.js/);
    expect(run.stdout).toMatch(/System: Exec completed \([a-z0-9-]{1,8}, code 0\) :: Install plugins\? \[y\/N\] y answer: y plugins installed/);
  });

  it("wakes the idle agent on its thread with no user message (toolkit.wakeOnExit)", () => {
    const turn2 = run.stdout.slice(run.stdout.indexOf("== turn 2 (woken by "));
    expect(turn2).toMatch(/^== turn 2 \(woken by [12] exit event\(s\), no user message\) ==\nsystem event \(delivered by the middleware before the model call\)\n/);
    expect(turn2).not.toMatch(/^user /m);
    expect(run.stdout.indexOf("== turn 2 (woken by ")).toBeGreaterThan(run.stdout.indexOf("the turn has ended; the agent is idle while the jobs finish"));
  });

  it("lists the finished sessions, reads the build log and disposes the engine", () => {
    expect(run.stdout).toMatch(/ {4}[a-z0-9-]+ completed +\S+ :: echo 'compiling 3 modules\.\.\.';/);
    expect(run.stdout).toMatch(/ {4}[a-z0-9-]+ completed +\S+ :: printf 'Install plugins\? \[y\/N\] ';/);
    expect(run.stdout).toMatch(/ {4}compiling 3 modules\.\.\.\n {4}build ok: dist\/app\.js\n/);
    expect(run.stdout).toContain("assistant The build finished (dist/app.js) and the plugins are installed.");
    expect(run.stdout.trimEnd().endsWith("engine disposed; live sessions: 0")).toBe(true);
  });

  it("prints no color codes when stdout is not a terminal", () => {
    expect(run.stdout).not.toContain("\u001b[");
  });
});
