// The Python starter skeleton the kit ships (examples/python-starter, PROTOCOL.md §8): the kit runs against it
// over stdio with no protocol error, and every behaviour scenario fails cleanly on its own assertions.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;
const STARTER = join(ROOT, "examples/python-starter/starter.py");

interface Run { exitCode: number | null; scenarios: number; failedScenarios: number; errors: string[] }

function runKitAgainstStarter(): Promise<Run> {
  const report = mkdtempSync(join(tmpdir(), "python-starter-"));
  const args = ["conformance/bin.mjs", "--command", `python3 ${STARTER}`, "--paths", "process_actions.feature",
    "--tags", "(@PROC-01 or @PROC-08 or @PROC-11) and not @pty", "--parallel", "2", "--report", report];
  return new Promise((resolve, reject) => {
    const kit = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    kit.once("error", reject);
    kit.once("exit", (exitCode) => {
      try {
        const envelopes = readFileSync(join(report, "messages.ndjson"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
        const failedStarts = new Set<string>();
        const errors: string[] = [];
        for (const envelope of envelopes) {
          const result = envelope["testStepFinished"]?.testStepResult;
          if (result?.status === "FAILED") {
            failedStarts.add(envelope["testStepFinished"].testCaseStartedId);
            errors.push(String(result.message ?? ""));
          }
        }
        const scenarios = envelopes.filter((envelope) => envelope["testCaseStarted"]).length;
        resolve({ exitCode, scenarios, failedScenarios: failedStarts.size, errors });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(report, { recursive: true, force: true });
      }
    });
  });
}

describe("the Python starter skeleton", () => {
  it("fails every selected behaviour scenario on an assertion, never on the protocol", async () => {
    const run = await runKitAgainstStarter();
    expect(run.exitCode).toBe(1);
    expect(run.scenarios).toBeGreaterThan(5);
    expect(run.failedScenarios).toBe(run.scenarios);
    // A protocol failure names the implementation ("The implementation `python3 …` …", PROTOCOL.md §5).
    expect(run.errors.filter((message) => message.includes("The implementation `"))).toEqual([]);
    expect(run.errors.some((message) => message.includes("not implemented"))).toBe(true);
  }, 240_000);
});
