// The kit never starts more worker processes than selected scenarios: each worker loads the kit and the
// implementation, and thirteen one-scenario kits at the default of 8 workers each once took a loaded machine's
// load average to 100. The fixture adapter notes the pid of every process that loads it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAdapterSource } from "./helpers/fixture-adapter.js";

const ROOT = new URL("../..", import.meta.url).pathname;

/** Notes the pid of every process that loads it. */
const adapter = (pidsFile: string): string =>
  fixtureAdapterSource(`import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(pidsFile)}, process.pid + "\\n");`);

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

describe("the kit's workers", () => {
  it("are as many as the selected scenarios when --parallel asks for more", async () => {
    const kit = spawn(process.execPath, [
      "conformance/bin.mjs", "--parallel", "8", "--adapter", join(dir, "adapter.mjs"), "--paths", join(dir, "features/fixture.feature"),
    ], { cwd: ROOT, stdio: "ignore" });
    const code = await new Promise((resolve) => kit.once("exit", resolve));
    expect(code).toBe(0);
    // The kit's own process loads the adapter too, for the report's adapter name.
    const workers = new Set(readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number).filter((pid) => pid !== kit.pid));
    expect(workers.size).toBe(2);
  }, 90_000);
});
