// The container tests' engine fixture (scripts/docker-daemon.mjs, scripts/podman-service.mjs) stops an engine that a
// test left paused (SIGSTOP, as the engine-liveness attacks do): a paused engine accepts connections and answers none,
// and CI once waited out its 90 minutes on a run that never ended (issue 36). In the Podman run, against Podman.
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { describeDocker, startOwnEngine } from "./docker-helpers.js";
import { markerSeconds, sleepers, waitUntil } from "./helpers.js";

/** The stop's bound: a grace of 15 s after SIGTERM, and room for a loaded machine. */
const STOP_BOUND_MS = 45_000;

describeDocker("the container tests' engine fixture", () => {
  it("stops an engine left paused, with its container's processes, and removes its folder", async () => {
    const engine = await startOwnEngine();
    const marker = markerSeconds();
    const run = engine.docker(["run", "-d", "--network", "none", engine.image, "sleep", marker]);
    expect(run.status, run.stderr.toString()).toBe(0);
    expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
    process.kill(engine.pid!, "SIGSTOP");
    const started = Date.now();
    await engine.stop();
    expect(Date.now() - started).toBeLessThan(STOP_BOUND_MS);
    expect(existsSync(`/proc/${engine.pid}`) ? "the engine runs" : "gone").toBe("gone");
    expect(sleepers(marker)).toBe(0);
    expect(existsSync(engine.dir)).toBe(false);
  }, 120_000);
});
