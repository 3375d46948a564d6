// Issue 32: the container executor attacked as a hostile model and a careless operator would attack it. Each test
// names the attack, runs it, and checks that it failed and that the host is unharmed afterwards (its files, its
// processes, this process's memory, the engine's containers). Run against a private dockerd, and against Podman in
// npm test (scripts/test-all.mjs, PODMAN_TEST_FILES). Attack 5 (a stopped engine) is in container-engine-stop.test.ts,
// on an engine of its own; an engine that dies, in container-engine-death.test.ts.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createContainerExecutor, ExecProcessError, type ContainerExecutor } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { EXECUTOR_LABEL } from "../../src/executors/container/container-spec.js";
import {
  containerEngine, containersWith, describeDocker, executorOn, MEMORY_LIMIT_TEST_TIMEOUT_MS, MEMORY_LIMIT_YIELD_MS, processesIn, useDockerDaemon,
} from "../executors/docker-helpers.js";
import { cleanUp, ctx, engineWith, errorOf, markerSeconds, onCleanUp, textOf, waitUntil } from "../executors/helpers.js";

const daemon = useDockerDaemon("attacks/container.test.ts");
afterEach(cleanUp);

/** An engine whose cwd is the host's `/`, on an executor with its defaults (no `workspace`). */
function engineAtRoot(options: Parameters<typeof executorOn>[1] = {}) {
  const executor = executorOn(daemon(), options);
  return { executor, engine: engineWith("sandbox", executor, "/") };
}

function containerOf(executor: ContainerExecutor): string {
  const [id] = containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`);
  if (!id) throw new Error("the executor has no container");
  return id;
}

describeDocker("attacks on the container executor", () => {
  it("attack 1: an engine started from / mounts nothing of the host; commands get a private workspace", async () => {
    const token = `attack-${process.pid}-${Date.now()}`;
    const { engine } = engineAtRoot();
    const text = textOf(await engine.exec({
      host: "sandbox", command: `pwd; echo x > /workspace/${token} && echo written; ls /workspace; stat -c '%U %a' /workspace; ls /workspace/tmp 2>&1 | head -1`,
    }, ctx));
    // Owned by the container's user (under Docker its mode follows the image's mount point: 755 on a fresh folder).
    expect(text.split("\n").slice(0, 3)).toEqual(["/workspace", "written", token]);
    expect(text.split("\n")[3]).toMatch(/^nobody (700|755)$/);
    expect(text).toContain("No such file or directory");
    for (const path of [`/${token}`, `/tmp/${token}`, join(tmpdir(), token)]) expect(existsSync(path), path).toBe(false);
    // A workdir that names a host folder maps into the private workspace, where no host folder is.
    const tmp = textOf(await engine.exec({ host: "sandbox", command: "pwd", workdir: "/tmp" }, ctx));
    expect(tmp).toContain("can't cd to /workspace/tmp");
  });

  it.each([
    ["/", "it is the host's root"], ["/etc", "it is a system directory"], ["/usr/", "it is a system directory"],
    ["/home/someone", "it is a home directory's root"],
  ])("attack 1: the workspace %s is refused when the executor is made", async (workspace, reason) => {
    const error = await errorOf(() => createContainerExecutor({ image: daemon().image, docker: { socketPath: daemon().socketPath }, workspace }));
    expect(ExecProcessError.is(error, "container-workspace-refused")).toBe(true);
    expect((error as Error).message).toBe(messages.containerWorkspaceRefused(workspace, reason));
  });

  it("attack 1: a workspace that holds the engine's socket is refused at its first command, and nothing runs", async () => {
    const holder = daemon().socketPath.replace(/\/[^/]+$/, "");
    const executor = executorOn(daemon(), { workspace: holder });
    const engine = engineWith("sandbox", executor, holder);
    const error = await errorOf(() => engine.exec({ host: "sandbox", command: "touch owned" }, ctx));
    expect(ExecProcessError.is(error, "container-workspace-refused")).toBe(true);
    // dockerd's data root is in that folder too (the first check); Podman's service keeps its storage elsewhere.
    expect([
      messages.containerWorkspaceRefused(holder, "it holds the container engine's state"),
      messages.containerWorkspaceRefused(holder, "it holds a container engine's socket or state"),
    ]).toContain((error as Error).message);
    expect(existsSync(join(holder, "owned"))).toBe(false);
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toEqual([]);
  });

  it("attack 2: a status file replaced by a link to /dev/zero (or a FIFO) does not grow the host's memory", async () => {
    const { engine } = engineAtRoot();
    // The command finds its status file's name in its parent's (the wrapper's) arguments, plants the link, and
    // keeps replacing it from the background while it exits with a code over 128.
    const plant = 'm=$(tr "\\0" "\\n" </proc/$PPID/cmdline | sed -n 5p); f=/.exec-process/$m; '
      + '(for i in 1 2 3 4 5 6 7 8 9 10; do rm -f "$f"; ln -s /dev/zero "$f"; sleep 0.05; done) & ';
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const linked = textOf(await engine.exec({ host: "sandbox", command: `${plant} sleep 0.2; exit 137` }, ctx));
    // The command can only misreport its own end: as the code it chose, or (its status file a link) as SIGKILL.
    expect([
      `${messages.NO_OUTPUT}\n\n${messages.commandExitedWithCode(137)}`, `${messages.NO_OUTPUT}\n\n${messages.abortedBySignal("SIGKILL")}`,
    ]).toContain(linked);
    const fifo = 'm=$(tr "\\0" "\\n" </proc/$PPID/cmdline | sed -n 5p); mkfifo /.exec-process/$m; exit 200';
    expect(textOf(await engine.exec({ host: "sandbox", command: fifo }, ctx))).toBe(`${messages.NO_OUTPUT}\n\n${messages.commandExitedWithCode(200)}`);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it.each([
    ["a child that ignores TERM and HUP under nohup", (n: string) => `nohup sh -c 'trap "" TERM HUP; exec sleep ${n}' >/dev/null 2>&1 & sleep 100`],
    ["a child that removed the marker variable with env -u", (n: string) => `setsid env -u EXEC_PROCESS_SESSION sleep ${n} & sleep 100`],
    ["setsid and an execute-only copy of the binary (not dumpable)",
      (n: string) => `cp /bin/busybox /workspace/sleep && chmod 111 /workspace/sleep && setsid /workspace/sleep ${n} & sleep 100`],
    ["a double fork that leaves the command's tree", (n: string) => `(setsid sh -c 'sleep ${n} &' &) ; sleep 100`],
  ])("attack 3: the timeout's kill is not dodged by %s", async (_name, command) => {
    const seconds = markerSeconds();
    const { engine, executor } = engineAtRoot();
    const text = textOf(await engine.exec({ host: "sandbox", command: command(seconds), timeoutSeconds: 2 }, ctx));
    expect(text).toContain(messages.commandTimedOut(2));
    const id = containerOf(executor);
    // TERM at the timeout, then SIGKILL after the grace period (5 s), also once the command's own shell has gone.
    const survivor = (): boolean => (processesIn(daemon(), id) ?? []).some((p) => p.includes(`sleep ${seconds}`));
    expect(await waitUntil(() => !survivor(), 12_000)).toBe(true);
  });

  it("attack 4: an executor in another pid namespace with the same hostname leaves a live container alone", async () => {
    if (process.getuid?.() !== 0 || spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]).status !== 0) {
      console.warn("attack 4 skipped: making a pid namespace needs root and unshare(1)");
      return;
    }
    const { engine, executor } = engineAtRoot();
    const seconds = markerSeconds();
    const started = await engine.exec({ host: "sandbox", command: `sleep ${seconds}`, background: true }, ctx);
    const id = await waitUntilContainer(executor);
    const sleeping = (): boolean => (processesIn(daemon(), id) ?? []).some((p) => p === `sleep ${seconds}`);
    expect(await waitUntil(sleeping, 10_000)).toBe(true);
    // The neighbour: a fresh executor on the same daemon, in its own pid namespace (its pids do not name ours), whose
    // first command runs the leftover sweep.
    // The build, in plain node: through tsx the start cost over twice the CPU (test/global-setup.ts keeps dist/ current).
    const entry = new URL("../../dist/src/index.js", import.meta.url).pathname;
    const script = [
      `import { createContainerExecutor } from ${JSON.stringify(entry)};`,
      `const executor = createContainerExecutor({ image: ${JSON.stringify(daemon().image)}, docker: { socketPath: ${JSON.stringify(daemon().socketPath)} }, workspaceAccess: "none" });`,
      'const child = await executor.spawn({ command: "true", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "n" });',
      "await new Promise((resolve) => child.onExit(resolve));",
      "await executor.dispose();",
      'console.log("swept");',
    ].join("\n");
    const neighbour = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", process.execPath, "--input-type=module", "-e", script], {
      cwd: new URL("../..", import.meta.url).pathname, encoding: "utf8", timeout: 60_000,
    });
    expect(neighbour.stdout.trim()).toBe("swept");
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toEqual([id]);
    expect(sleeping()).toBe(true);
    const polled = await engine.process({ action: "poll", sessionId: String(started.details["sessionId"]) }, ctx);
    expect(polled.details).toMatchObject({ status: "running" });
  }, 60_000);

  it("attack 6: 300 MB written to the private workspace stop at workspaceSize, in memory, never on the host's disk", async () => {
    const { engine } = engineAtRoot({ workspaceSize: "32m", memory: "128m" });
    // head's own complaint goes to stderr, which the container's stream may deliver before or after stdout: left out.
    const command = "head -c 300000000 /dev/zero > /workspace/big 2>/dev/null; echo $?; du -k /workspace/big";
    const text = textOf(await engine.exec({ host: "sandbox", command, yieldMs: MEMORY_LIMIT_YIELD_MS }, ctx));
    const [, status, used] = /^(\d+)\n(\d+)\t\/workspace\/big$/.exec(text) ?? [];
    expect(status, text).toBe("1");
    expect(Number(used)).toBeLessThanOrEqual(32 * 1024);
  }, MEMORY_LIMIT_TEST_TIMEOUT_MS);

  it("attack 6: 200 scope keys cannot make more than maxContainers containers", async () => {
    const { engine, executor } = engineAtRoot({ maxContainers: 3, scope: "session" });
    for (const scopeKey of ["a", "b", "c"]) await engine.exec({ host: "sandbox", command: "true" }, { scopeKey });
    const error = await errorOf(() => engine.exec({ host: "sandbox", command: "true" }, { scopeKey: "d" }));
    expect(ExecProcessError.is(error, "container-limit")).toBe(true);
    expect((error as Error).message).toBe(messages.containerLimit(3));
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toHaveLength(3);
    await executor.dispose();
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toEqual([]);
  });

  it.each(["0:0", "root", "0"])("attack 6: user %s is refused unless allowRoot is set", async (user) => {
    const error = await errorOf(() => createContainerExecutor({ image: daemon().image, docker: { socketPath: daemon().socketPath }, user }));
    expect(ExecProcessError.is(error, "container-root-refused")).toBe(true);
    expect((error as Error).message).toBe(messages.containerRootRefused(user));
  });

  it("a workspace made by mkdtemp (0700) that the container's user cannot enter is refused with its owner and mode", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "ws-0700-"));
    onCleanUp(() => rmSync(workspace, { recursive: true, force: true }));
    const { uid, gid, mode } = statSync(workspace);
    const executor = executorOn(daemon(), { workspace, memory: "64m" });
    const engine = engineWith("sandbox", executor, workspace);
    if (uid !== 0) {
      // Not root: the container's user is the folder's owner, who can enter it.
      expect(textOf(await engine.exec({ host: "sandbox", command: "pwd; id -u" }, ctx))).toBe(`/workspace\n${uid}`);
      return;
    }
    const error = await errorOf(() => engine.exec({ host: "sandbox", command: "pwd" }, ctx));
    expect(ExecProcessError.is(error, "container-workspace-unreachable")).toBe(true);
    expect((error as Error).message).toBe(messages.containerWorkspaceUnreachable(
      workspace, `${uid}:${gid}`, `0${(mode & 0o777).toString(8)}`, "65534:65534",
    ));
    expect((error as Error).message).toBe(`The container user "65534:65534" cannot enter the workspace "${workspace}" (owner 0:0, mode 0700): `
      + "command was not executed. Set the executor's user option to the folder's owner, or give that user access to it.");
    chmodSync(workspace, 0o777);
    expect(textOf(await engine.exec({ host: "sandbox", command: "pwd" }, ctx))).toBe("/workspace");
  });

  it("a pipeline member killed for memory is reported as out of memory, and the session failed", async () => {
    const { engine } = containerEngine(daemon(), { memory: "64m", workspace: undefined });
    const result = await engine.exec({
      host: "sandbox", command: "head -c 300000000 /dev/zero | tr '\\0' a | (v=$(cat); echo ${#v})", yieldMs: MEMORY_LIMIT_YIELD_MS,
    }, ctx);
    // "Killed" is the command's own shell reporting its member's death; the note and the signal are the executor's.
    expect(textOf(result)).toBe(`Killed\n${messages.containerOutOfMemory("64 MiB").trimEnd()}\n\n${messages.abortedBySignal("SIGKILL")}`);
    expect(result.details).toMatchObject({ status: "failed", exitCode: null });
  }, MEMORY_LIMIT_TEST_TIMEOUT_MS);
});

async function waitUntilContainer(executor: ContainerExecutor): Promise<string> {
  expect(await waitUntil(() => containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`).length === 1, 15_000)).toBe(true);
  return containerOf(executor);
}
