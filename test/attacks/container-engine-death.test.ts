// Issue 32, attack 5: the container engine dies while a command runs, and comes back. The session ends at once,
// failed, saying that the engine went away; the command's processes keep running in their container while the engine
// is dead (its shim holds them), and end when it comes back: dockerd without live-restore shuts down on start the
// containers it finds running. A private dockerd of this file's own, since the test kills it; against an engine given
// by DOCKER_SOCKET (Podman's in npm test) it skips, saying why.
import { existsSync, readFileSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { describeDocker, executorOn, useDockerDaemon } from "../executors/docker-helpers.js";
import { cleanUp, ctx, engineWith, markerSeconds, pollUntilDone, sleepers, textOf, waitUntil } from "../executors/helpers.js";

const daemon = useDockerDaemon("attacks/container-engine-death.test.ts");
afterEach(cleanUp);

describeDocker("the container engine dies", () => {
  it("attack 5: a command whose engine is killed ends failed with the reason; its processes are gone once the engine is back", async () => {
    if (process.env["DOCKER_SOCKET"]) {
      console.warn("attack 5 (engine death) skipped: the engine at DOCKER_SOCKET is shared by the other test files");
      return;
    }
    const executor = executorOn(daemon());
    const engine = engineWith("sandbox", executor, "/");
    const seconds = markerSeconds();
    const started = await engine.exec({ host: "sandbox", command: `sleep ${seconds} & sleep ${seconds}`, background: true }, ctx);
    expect(await waitUntil(() => sleepers(seconds) === 2, 10_000)).toBe(true);
    process.kill(daemon().pid!, "SIGKILL");
    const result = await pollUntilDone(engine, String(started.details["sessionId"]));
    expect(result.details).toMatchObject({ status: "failed", exitCode: null });
    expect(textOf(result)).toContain(messages.containerEngineLost("the configured local socket").trim());
    await daemon().restart!();
    expect(await waitUntil(() => sleepers(seconds) === 0, 20_000)).toBe(true);
    // The killed dockerd left its data root's mount: stopping the engine leaves neither a mount nor its folder.
    const { dir } = daemon();
    await executor.dispose();
    await daemon().stop();
    expect(readFileSync("/proc/self/mountinfo", "utf8").split("\n").filter((line) => line.includes(`${dir}/`))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
