// One command in a real container, below the engine: its pid from the wrapper's frame, output without the frame,
// terminal input, and kill of every process of its group id.
import Docker from "dockerode";
import { afterEach, expect, it } from "vitest";
import type { ExecutorProcess } from "../../src/index.js";
import { startContainerCommand } from "../../src/executors/container/container-process.js";
import { describeDocker, useDockerDaemon } from "./docker-helpers.js";
import { cleanUp, onCleanUp } from "./helpers.js";

const daemon = useDockerDaemon("container-process.test.ts");
afterEach(cleanUp);

async function start(command: string, pty = false) {
  const docker = new Docker({ socketPath: daemon().socketPath });
  const container = await docker.createContainer({
    Image: daemon().image, Cmd: ["sleep", "300"], HostConfig: { AutoRemove: true, NetworkMode: "none", Tmpfs: { "/.exec-process": "mode=1777" } },
  });
  await container.start();
  onCleanUp(() => container.remove({ force: true }).catch(() => undefined));
  let done = false;
  const child = await startContainerCommand({
    engine: { docker, endpoint: "the test engine" }, container, command, workdir: "/", env: { X: "1" }, pty, memoryLimit: "1 MiB",
    gid: 40_123, user: "65534:40123", onDone: () => (done = true),
  });
  return { child, ended: () => done };
}

function collect(child: ExecutorProcess): Promise<{ output: string; code: number | null; signal: string | null }> {
  let output = "";
  child.onOutput((_stream, chunk) => (output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString()));
  return new Promise((resolve) => child.onExit((code, signal) => resolve({ output, code, signal })));
}

describeDocker("startContainerCommand", () => {
  it("reports the command's pid and passes its output without the wrapper's frame", async () => {
    const { child, ended } = await start("echo $X; echo $PPID"); // the reported pid leads the group: the wrapper
    const { output, code } = await collect(child);
    expect(code).toBe(0);
    expect(output).toBe(`1\n${String(child.pid)}\n`);
    expect(ended()).toBe(true);
  });

  it("takes terminal input and ends the whole group on kill", async () => {
    const { child } = await start("read line; echo got $line; sleep 100 & sleep 100", true);
    const result = collect(child);
    await child.stdin?.write("hi\r");
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill?.("SIGTERM");
    const { output, signal } = await result;
    expect(output).toContain("got hi");
    expect(signal).toBe("SIGTERM");
  });
});
