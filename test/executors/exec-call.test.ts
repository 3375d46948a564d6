// Helper execs in a real container: stdout collected up to a bound, the exit code read once the exec ended.
import Docker from "dockerode";
import { afterEach, expect, it } from "vitest";
import { execExitCode, execOnce } from "../../src/executors/container/exec-call.js";
import { describeDocker, useDockerDaemon } from "./docker-helpers.js";
import { cleanUp, onCleanUp } from "./helpers.js";

const daemon = useDockerDaemon("exec-call.test.ts");
afterEach(cleanUp);

async function startContainer() {
  const docker = new Docker({ socketPath: daemon().socketPath });
  const container = await docker.createContainer({ Image: daemon().image, Cmd: ["sleep", "300"], HostConfig: { AutoRemove: true, NetworkMode: "none" } });
  await container.start();
  onCleanUp(() => container.remove({ force: true }).catch(() => undefined));
  return { docker, container, engine: { docker, endpoint: "the test engine" } };
}

describeDocker("exec calls", () => {
  it("collects a helper's stdout only, and gives the empty string when the exec cannot run", async () => {
    const { engine, container } = await startContainer();
    expect(await execOnce(engine, container, ["/bin/sh", "-c", "echo out; echo err >&2"])).toBe("out\n");
    await container.remove({ force: true });
    expect(await execOnce(engine, container, ["true"])).toBe("");
  });

  it("keeps at most maxBytes of a helper's endless stdout, and returns", async () => {
    const { engine, container } = await startContainer();
    const out = await execOnce(engine, container, ["/bin/sh", "-c", "cat /dev/zero"], { maxBytes: 1000 });
    expect(out.length).toBe(1000);
  });

  it("reads an exec's exit code once it ended", async () => {
    const { docker, container, engine } = await startContainer();
    const exec = await container.exec({ Cmd: ["/bin/sh", "-c", "exit 7"], AttachStdout: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    docker.modem.demuxStream(stream, process.stdout, process.stderr);
    await new Promise((resolve) => stream.once("end", resolve));
    expect(await execExitCode(engine, exec)).toBe(7);
  });
});
