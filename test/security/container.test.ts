// The container executor's isolation against a real dockerd (issue 21): no capabilities, no privilege gain, no
// Docker socket, a read-only root, a non-root user, no network, and no workdir outside the workspace.
import { afterEach, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import { containerEngine, describeDocker, useDockerDaemon } from "../executors/docker-helpers.js";
import { cleanUp, ctx, textOf } from "../executors/helpers.js";

const daemon = useDockerDaemon("security/container.test.ts");
afterEach(cleanUp);

describeDocker("container isolation", () => {
  it("runs commands with no capabilities, no-new-privileges, as a non-root user", async () => {
    const { engine } = containerEngine(daemon());
    const text = textOf(await engine.exec({ host: "sandbox", command: "grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; id -u" }, ctx));
    expect(text).toBe("CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n65534");
  });

  it("has no Docker socket inside and a read-only root", async () => {
    const { engine } = containerEngine(daemon());
    const text = textOf(await engine.exec({
      host: "sandbox",
      command: "find / -xdev -type s 2>/dev/null | wc -l; ls /var/run/docker.sock /run/docker.sock 2>&1 | wc -l; touch /bin/x 2>&1; touch /x 2>&1; true",
    }, ctx));
    expect(text).toBe("0\n2\ntouch: /bin/x: Read-only file system\ntouch: /x: Read-only file system");
  });

  it("has only a loopback interface", async () => {
    const { engine } = containerEngine(daemon());
    expect(textOf(await engine.exec({ host: "sandbox", command: "ls /sys/class/net" }, ctx))).toBe("lo");
  });

  it.each(["/etc", "..", "/"])("refuses the workdir %s outside the workspace", async (workdir) => {
    const { engine } = containerEngine(daemon());
    const error = await engine.exec({ host: "sandbox", command: "true", workdir }, ctx).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "container-workdir-outside")).toBe(true);
  });

  it("refuses every workdir but the default without a workspace, where commands see no host files", async () => {
    const { engine } = containerEngine(daemon(), { workspaceAccess: "none" });
    expect(textOf(await engine.exec({ host: "sandbox", command: "pwd; ls /workspace | wc -l" }, ctx))).toBe("/tmp\n0");
    await expect(engine.exec({ host: "sandbox", command: "true", workdir: "sub" }, ctx)).rejects.toThrow(/no workspace/);
  });
});
