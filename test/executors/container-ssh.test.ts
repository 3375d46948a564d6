// The container executor with its Docker engine reached over ssh, the way a remote build box is (issue 21): the
// project's sshd fixture on 127.0.0.1 in front of a private dockerd, dockerode's `protocol: "ssh"`, which runs
// `docker system dial-stdio` on the far side (the fixture's sessions get DOCKER_HOST through sshd's SetEnv).
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { EXECUTOR_LABEL } from "../../src/executors/container/container-spec.js";
import type { DockerConnection } from "../../src/executors/container/container-options.js";
import { sshdUnavailableReason, startSshd, type SshdFixture } from "../../scripts/sshd-fixture.mjs";
import { containerEngine, containersWith, describeDocker, processesIn, useDockerDaemon } from "./docker-helpers.js";
import { cleanUp, ctx, sessionIdOf, textOf, waitUntil } from "./helpers.js";

const daemon = useDockerDaemon("container-ssh.test.ts");
const sshdReason = sshdUnavailableReason();
if (sshdReason) console.warn(`container-ssh.test.ts: skipped: ${sshdReason}`);
const describeBoth = sshdReason ? describeDocker.skip : describeDocker;
let sshd: SshdFixture | undefined;
afterEach(cleanUp);

describeBoth("createContainerExecutor over protocol ssh", () => {
  beforeAll(async () => {
    sshd = await startSshd({ setEnv: { DOCKER_HOST: `unix://${daemon().socketPath}` } });
  }, 60_000);
  afterAll(async () => sshd?.stop());

  /** dockerode's ssh connection to the fixture, accepting only the fixture's host key. */
  const overSsh = (): DockerConnection => {
    const { host, port, username, privateKey, hostKey } = sshd!;
    const expected = hostKey.split(/\s+/)[1];
    return {
      protocol: "ssh", host, port, username,
      sshOptions: { privateKey, hostVerifier: (key: Buffer) => key.toString("base64") === expected },
    };
  };

  it("returns output, an exit code and a signal exactly", async () => {
    const { engine } = containerEngine(daemon(), { docker: overSsh() });
    const run = async (command: string) => textOf(await engine.exec({ host: "sandbox", command }, ctx));
    expect(await run("echo hello")).toBe("hello");
    expect(await run("echo out; exit 3")).toBe(`out\n\n${messages.commandExitedWithCode(3)}`);
    expect(await run("kill -9 $$")).toBe(messages.abortedBySignal("SIGKILL"));
  });

  it("kill ends every process of `sleep & sleep`, and dispose removes the container", async () => {
    const { engine, executor } = containerEngine(daemon(), { docker: overSsh() });
    const started = await engine.exec({ host: "sandbox", command: "sleep 100 & sleep 100", background: true }, ctx);
    const [id] = containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`);
    expect(await waitUntil(() => (processesIn(daemon(), id!) ?? []).filter((p) => p === "sleep 100").length === 2, 20_000)).toBe(true);
    expect(textOf(await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx))).toContain("Termination requested");
    expect(await waitUntil(() => !(processesIn(daemon(), id!) ?? []).some((p) => p.startsWith("sleep")), 20_000)).toBe(true);
    const polled = textOf(await engine.process({ action: "poll", sessionId: sessionIdOf(started), timeout: 5000 }, ctx));
    expect(polled).toContain("Process stopped by request (signal SIGTERM).");
    await engine.dispose();
    await executor.dispose();
    expect(await waitUntil(() => containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`).length === 0, 20_000)).toBe(true);
  });

  it("refuses an ssh endpoint whose host key is not the expected one, running nothing", async () => {
    const { engine } = containerEngine(daemon(), { docker: { ...overSsh(), sshOptions: { privateKey: sshd!.privateKey, hostVerifier: () => false } } });
    const error = await engine.exec({ host: "sandbox", command: "true" }, ctx).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "container-engine-unavailable")).toBe(true);
    expect((error as Error).message).toContain(`The container engine at ssh://127.0.0.1:${sshd!.port} cannot be reached`);
  });
});
