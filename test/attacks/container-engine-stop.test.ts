// Issue 32, attack 5: the container engine stops answering (SIGSTOP). A call then ends at its timeout plus at most
// 5 s, and one made while the engine is stopped fails within 5 s, each naming the engine. The engine is this file's
// own (useOwnEngine: a private dockerd, or a private Podman service in the Podman run), since stopping a shared one
// would stall the other files' tests.
import { existsSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { describeDocker, executorOn, useOwnEngine } from "../executors/docker-helpers.js";
import { cleanUp, ctx, engineWith, errorOf, markerSeconds, sleepers, textOf, waitUntil } from "../executors/helpers.js";

const daemon = useOwnEngine("attacks/container-engine-stop.test.ts");
/** A paused engine's stop: a grace of 15 s after SIGTERM, and room for a loaded machine. */
const STOP_BOUND_MS = 45_000;
afterEach(async () => {
  // A test that timed out never reached its own SIGCONT: the engine goes on before anything else talks to it.
  try { process.kill(daemon().pid!, "SIGCONT"); } catch { /* the last test stopped it */ }
  await cleanUp();
});

/** An engine whose cwd is the host's `/`, on an executor with its defaults. */
function engineAtRoot() {
  const executor = executorOn(daemon());
  return { executor, engine: engineWith("sandbox", executor, "/") };
}

describeDocker("attacks on the container engine's liveness", () => {
  it("attack 5: an engine stopped while a command runs: the call ends at its timeout plus at most 5 s, naming the engine", async () => {
    const pid = daemon().pid!;
    const { engine } = engineAtRoot();
    await engine.exec({ host: "sandbox", command: "true" }, ctx); // the container exists
    const seconds = markerSeconds();
    const started = Date.now();
    const running = engine.exec({ host: "sandbox", command: `sleep ${seconds}`, timeoutSeconds: 3 }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(pid, "SIGSTOP");
    try {
      const text = textOf(await running);
      const elapsed = Date.now() - started;
      expect(text).toContain(messages.containerEngineUnresponsive("the configured local socket", 5000).trim());
      expect(elapsed).toBeLessThan(3000 + 5000 + 1500);
    } finally {
      process.kill(pid, "SIGCONT");
    }
  }, 30_000);

  it("attack 5: an engine stopped before a command starts: the call fails within 5 s, naming the engine", async () => {
    const pid = daemon().pid!;
    const { engine } = engineAtRoot();
    await engine.exec({ host: "sandbox", command: "true" }, ctx);
    process.kill(pid, "SIGSTOP");
    const started = Date.now();
    try {
      const error = await errorOf(() => engine.exec({ host: "sandbox", command: "true", timeoutSeconds: 2 }, ctx));
      expect(ExecProcessError.is(error, "container-engine-unresponsive")).toBe(true);
      expect((error as Error).message).toBe(messages.containerEngineUnresponsive("the configured local socket", 5000));
      expect(Date.now() - started).toBeLessThan(2000 + 5000 + 1500);
    } finally {
      process.kill(pid, "SIGCONT");
    }
  }, 30_000);

  // The fixture's own part (scripts/docker-daemon.mjs, stopEngineProcess): a paused engine accepts connections and
  // answers none, and CI once waited out its 90 minutes on a run that never ended, most likely on a fixture's stop
  // waiting on one (issue 36). The file's last test: the engine is gone after it.
  it("the fixture stops an engine left paused, with its container's processes, and removes its folder", async () => {
    const engine = daemon();
    const seconds = markerSeconds();
    const run = engine.docker(["run", "-d", "--network", "none", engine.image, "sleep", seconds]);
    expect(run.status, run.stderr.toString()).toBe(0);
    expect(await waitUntil(() => sleepers(seconds) === 1, 10_000)).toBe(true);
    process.kill(engine.pid!, "SIGSTOP");
    const started = Date.now();
    await engine.stop();
    expect(Date.now() - started).toBeLessThan(STOP_BOUND_MS);
    expect(existsSync(`/proc/${engine.pid}`) ? "the engine runs" : "gone").toBe("gone");
    expect(sleepers(seconds)).toBe(0);
    expect(existsSync(engine.dir)).toBe(false);
  }, 120_000);
});
