// Issue 32, attack 5: the container engine stops answering (SIGSTOP). A call then ends at its timeout plus at most
// 5 s, and one made while the engine is stopped fails within 5 s, each naming the engine. The engine is this file's
// own (useOwnEngine: a private dockerd, or a private Podman service in the Podman run), since stopping a shared one
// would stall the other files' tests.
import { afterEach, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { describeDocker, executorOn, useOwnEngine } from "../executors/docker-helpers.js";
import { cleanUp, ctx, engineWith, errorOf, markerSeconds, textOf } from "../executors/helpers.js";

const daemon = useOwnEngine("attacks/container-engine-stop.test.ts");
afterEach(async () => {
  // A test that timed out never reached its own SIGCONT: the engine goes on before anything else talks to it.
  process.kill(daemon().pid!, "SIGCONT");
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

});
