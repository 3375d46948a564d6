// createContainerExecutor against a real dockerd (issue 21): results come back exactly, terminals, the workspace,
// no network, kill and limits, refusals, and nothing left after dispose.
import { chmodSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { createContainerExecutor, ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { EXECUTOR_LABEL } from "../../src/executors/container/container-spec.js";
import {
  containerEngine, containersWith, describeDocker, MEMORY_LIMIT_TEST_TIMEOUT_MS, MEMORY_LIMIT_YIELD_MS, processesIn, useDockerDaemon,
} from "./docker-helpers.js";
import { cleanUp, ctx, engineWith, onCleanUp, scratchDir, sessionIdOf, textOf, waitUntil } from "./helpers.js";

const daemon = useDockerDaemon("container-executor.test.ts");
afterEach(cleanUp);

describeDocker("createContainerExecutor", () => {
  it("runs on the engine at DOCKER_SOCKET when it is set (Podman's, in npm test), else on a private dockerd", () => {
    const given = process.env["DOCKER_SOCKET"];
    expect(daemon().socketPath).toEqual(given ?? expect.stringMatching(/\/exec-docker-[^/]+\/docker\.sock$/));
  });

  it("returns output, an exit code and a signal exactly, telling exit 137 from SIGKILL", async () => {
    const { engine } = containerEngine(daemon());
    const run = async (command: string) => textOf(await engine.exec({ host: "sandbox", command }, ctx));
    expect(await run("echo hello")).toBe("hello");
    expect(await run("echo out; exit 3")).toBe(`out\n\n${messages.commandExitedWithCode(3)}`);
    expect(await run("echo err >&2")).toBe("err");
    expect(await run("exit 137")).toBe(`${messages.NO_OUTPUT}\n\n${messages.commandExitedWithCode(137)}`);
    expect(await run("kill -9 $$")).toBe(messages.abortedBySignal("SIGKILL"));
    expect(await run("echo bye; kill -TERM $$")).toBe(`bye\n\n${messages.abortedBySignal("SIGTERM")}`);
    expect(await run("echo $OPENCLAW_SHELL; cat; echo done")).toBe("exec\ndone");
  });

  it("gives a pty:true command a terminal of the engine's size, and a pipe otherwise", async () => {
    const { engine } = containerEngine(daemon());
    expect(textOf(await engine.exec({ host: "sandbox", command: "tty" }, ctx))).toContain("not a tty");
    const tty = textOf(await engine.exec({ host: "sandbox", command: "tty && stty size", pty: true }, ctx));
    expect(tty).toMatch(/^\/dev\/pts\/\d+\r?\n30 120$/);
  });

  it("writes the workspace at its workdir and nothing outside it; there is no network", async () => {
    const { engine, workdir } = containerEngine(daemon());
    const text = textOf(await engine.exec({ host: "sandbox", command: "pwd; echo kept > file; cat file; echo x 2>&1 > /etc/x || echo refused" }, ctx));
    expect(text).toMatch(/^\/workspace\nkept\n.*Read-only file system\nrefused$/s);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(`${workdir}/file`, "utf8")).toBe("kept\n");
    expect(textOf(await engine.exec({ host: "sandbox", command: "ls /sys/class/net" }, ctx))).toBe("lo");
  });

  it("refuses a workdir outside the workspace, naming the parameter, before anything runs", async () => {
    const { engine } = containerEngine(daemon());
    const error = await engine.exec({ host: "sandbox", command: "true", workdir: "/etc" }, ctx).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "container-workdir-outside")).toBe(true);
    expect((error as ExecProcessError).param).toBe("workdir");
  });

  it("kill ends every process of `sleep & sleep`: none is left in the container", async () => {
    const { engine, executor } = containerEngine(daemon());
    const started = await engine.exec({ host: "sandbox", command: "sleep 100 & sleep 100", background: true }, ctx);
    const [id] = containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`);
    expect(await waitUntil(() => (processesIn(daemon(), id!) ?? []).filter((p) => p === "sleep 100").length === 2, 10_000)).toBe(true);
    expect(textOf(await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx))).toContain("Termination requested");
    expect(await waitUntil(() => !(processesIn(daemon(), id!) ?? []).some((p) => p.startsWith("sleep")), 10_000)).toBe(true);
    const polled = textOf(await engine.process({ action: "poll", sessionId: sessionIdOf(started), timeout: 5000 }, ctx));
    expect(polled).toContain("Process stopped by request (signal SIGTERM).");
  });

  it("kill also ends a process that left the command's session with setsid, found by its group id", async () => {
    const { engine, executor } = containerEngine(daemon());
    const started = await engine.exec({ host: "sandbox", command: "setsid sleep 101 & sleep 100", background: true }, ctx);
    const [id] = containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`);
    expect(await waitUntil(() => (processesIn(daemon(), id!) ?? []).includes("sleep 101"), 10_000)).toBe(true);
    expect(textOf(await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx))).toContain("Termination requested");
    expect(await waitUntil(() => !(processesIn(daemon(), id!) ?? []).some((p) => p.startsWith("sleep")), 10_000)).toBe(true);
  });

  it("reports a memory hog killed by the memory limit as out of memory", async () => {
    const { engine } = containerEngine(daemon(), { memory: "32m" });
    const command = "awk 'BEGIN { s = \"a\"; while (1) s = s s }'";
    const text = textOf(await engine.exec({ host: "sandbox", command, yieldMs: MEMORY_LIMIT_YIELD_MS }, ctx));
    expect(text).toBe(`${messages.containerOutOfMemory("32 MiB").trim()}\n\n${messages.abortedBySignal("SIGKILL")}`);
  }, MEMORY_LIMIT_TEST_TIMEOUT_MS);

  it("contains a fork bomb at pidsLimit; the timeout ends it, and the executor serves the next command", async () => {
    const { engine, executor } = containerEngine(daemon(), { pidsLimit: 32 });
    // The bomb forks in a background subshell: the command's own shell forks once, before the pids run out (busybox
    // sh exits when a fork of its own fails), then becomes sleep, which the timeout ends.
    const text = textOf(await engine.exec({ host: "sandbox", command: "(b() { b | b & }; b) & exec sleep 100", timeoutSeconds: 3 }, ctx));
    expect(text).toContain(messages.commandTimedOut(3));
    const [id] = containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`);
    const pidsMax = daemon().docker(["exec", id!, "cat", "/sys/fs/cgroup/pids/pids.max", "/sys/fs/cgroup/pids.max"]).stdout.toString();
    expect(pidsMax.trim()).toBe("32");
    // Either the group kill reached every process, or the kill exec found no free pid and SIGKILL ended the container.
    const bombGone = (): boolean => (processesIn(daemon(), id!) ?? []).every((p) => !p.includes("b()") && !p.startsWith("sleep"));
    expect(await waitUntil(bombGone, 20_000)).toBe(true);
    expect(textOf(await engine.exec({ host: "sandbox", command: "echo alive" }, ctx))).toBe("alive");
  });

  it("removes its containers on dispose", async () => {
    const { engine, executor } = containerEngine(daemon(), { scope: "session" });
    await engine.exec({ host: "sandbox", command: "true" }, ctx);
    await engine.exec({ host: "sandbox", command: "true" }, { scopeKey: "other" });
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toHaveLength(2);
    await engine.dispose();
    await executor.dispose();
    expect(await waitUntil(() => containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`).length === 0, 10_000)).toBe(true);
  });

  it("with nodes, runs host node commands on the engine the call's node names, and refuses an unknown name", async () => {
    const { socketPath, dir, image } = daemon();
    const executor = createContainerExecutor({ image, nodes: { up: { socketPath }, down: { socketPath: `${dir}/missing.sock` } } });
    onCleanUp(() => executor.dispose());
    const workdir = scratchDir("container-nodes-");
    chmodSync(workdir, 0o777);
    const engine = engineWith("node", executor, workdir);
    expect(textOf(await engine.exec({ host: "node", node: "up", command: "echo on up" }, ctx))).toBe("on up");
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toHaveLength(1);
    const down = await engine.exec({ host: "node", node: "down", command: "true" }, ctx).catch((e: unknown) => e);
    expect(ExecProcessError.is(down, "container-engine-unavailable")).toBe(true);
    for (const node of ["elsewhere", undefined]) {
      const unknown = await engine.exec({ host: "node", command: "true", ...(node ? { node } : {}) }, ctx).catch((e: unknown) => e);
      expect(ExecProcessError.is(unknown, "unknown-node")).toBe(true);
      expect((unknown as ExecProcessError).data).toMatchObject({ node, knownNodes: ["up", "down"] });
    }
  });

  it("an abort stops the wait for a container being created; the container then serves the next command", async () => {
    const { executor, workdir } = containerEngine(daemon());
    const request = { command: "echo next", cwd: workdir, defaultCwd: workdir, env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };
    const controller = new AbortController();
    const spawned = executor.spawn({ ...request, signal: controller.signal });
    controller.abort(); // the container cannot be ready yet: its creation needs the engine's answers
    const error = await spawned.catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "aborted")).toBe(true);
    const next = await executor.spawn(request);
    const output: string[] = [];
    next.onOutput((_stream, chunk) => output.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")));
    await new Promise<void>((resolve) => next.onExit(() => resolve()));
    expect(output.join("")).toBe("next\n");
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toHaveLength(1);
  });

  it("refuses a missing image and an unreachable engine with what to do, running nothing", async () => {
    const { engine } = containerEngine(daemon(), { image: "local/not-there:1" });
    await expect(engine.exec({ host: "sandbox", command: "true" }, ctx)).rejects.toThrow(messages.containerImageMissing("local/not-there:1"));
    const unreachable = createContainerExecutor({ image: "x", docker: { socketPath: `${daemon().dir}/missing.sock` } });
    const request = { command: "true", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };
    const error = await unreachable.spawn(request).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "container-engine-unavailable")).toBe(true);
    await unreachable.dispose();
  });
});
