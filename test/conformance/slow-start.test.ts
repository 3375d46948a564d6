// A slow-starting implementation must not fail timing scenarios: a started call begins only once the
// implementation is up, so "N ms pass" measures the call alone (termination.feature, KILL-16).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;
const ADAPTER = new URL("./fixtures/slow-start-adapter.ts", import.meta.url).pathname;

describe("the kit against an implementation that needs 1.5 s to start", () => {
  it("passes a scenario that starts a call and then lets 500 ms pass", () => {
    const run = spawnSync(process.execPath, [
      "conformance/bin.mjs", "--adapter", ADAPTER, "--paths", "features/termination.feature:483",
    ], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(run.stdout).toContain("1 scenario (1 passed)");
    expect(run.status).toBe(0);
  }, 150_000);
});
