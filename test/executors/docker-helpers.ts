// Shared helpers of the container executor's tests: a private dockerd per test file (scripts/docker-daemon.mjs), or
// the engine at DOCKER_SOCKET when set (Podman's: scripts/podman-service.mjs), engines over a container executor, and
// what the daemon holds. Skipped, with the reason printed, where dockerd cannot run and no engine is given.
import { chmodSync } from "node:fs";
import { afterAll, beforeAll, describe } from "vitest";
import { createContainerExecutor, type ContainerExecutor, type ContainerExecutorOptions } from "../../src/index.js";
import { dockerUnavailableReason, engineFromEnvironment, startDockerDaemon, type DockerDaemon } from "../../scripts/docker-daemon.mjs";
import { startPodmanService } from "../../scripts/podman-service.mjs";
import { engineWith, onCleanUp, scratchDir } from "./helpers.js";

export const dockerSkipReason = engineFromEnvironment() ? undefined : dockerUnavailableReason();
export const describeDocker: typeof describe.skip = dockerSkipReason ? describe.skip : describe;

/** Starts the daemon before the file's tests and stops it after them; returns the accessor of the running daemon. */
export function useDockerDaemon(file: string): () => DockerDaemon {
  if (dockerSkipReason) console.warn(`${file}: container tests skipped: ${dockerSkipReason}`);
  let daemon: DockerDaemon | undefined;
  beforeAll(async () => {
    if (!dockerSkipReason) daemon = engineFromEnvironment() ?? await startDockerDaemon();
  }, 120_000);
  afterAll(async () => daemon?.stop(), 60_000);
  return () => {
    if (!daemon) throw new Error("the docker daemon is not running");
    return daemon;
  };
}

/**
 * Like useDockerDaemon, but an engine of the file's own even when DOCKER_SOCKET names a shared one: a private Podman
 * service when that engine is Podman's (DOCKER_ENGINE=podman, scripts/podman-service.mjs), else a private dockerd.
 * For tests that stop or kill their engine, which must not take the other files' engine with it.
 */
export function useOwnEngine(file: string): () => DockerDaemon {
  const podman = process.env["DOCKER_ENGINE"] === "podman";
  if (dockerSkipReason) console.warn(`${file}: container tests skipped: ${dockerSkipReason}`);
  let daemon: DockerDaemon | undefined;
  beforeAll(async () => {
    if (!dockerSkipReason) daemon = podman ? await startPodmanService() : await startDockerDaemon();
  }, 120_000);
  afterAll(async () => daemon?.stop(), 60_000);
  return () => {
    if (!daemon) throw new Error("the engine is not running");
    return daemon;
  };
}

/**
 * The yield window of a command that meets a container's memory limit, and the test's timeout around it: near its
 * limit a container reclaims before the kernel kills, and on a loaded machine a pipeline killed for memory once took
 * 11 s, past the default 10 s yield. These tests are about the limit, not about the call's time.
 */
export const MEMORY_LIMIT_YIELD_MS = 60_000;
export const MEMORY_LIMIT_TEST_TIMEOUT_MS = 90_000;

/** A container executor on `daemon`, disposed by `cleanUp`. */
export function executorOn(daemon: DockerDaemon, options: Partial<ContainerExecutorOptions> = {}): ContainerExecutor {
  const executor = createContainerExecutor({ image: daemon.image, docker: { socketPath: daemon.socketPath }, ...options });
  onCleanUp(() => executor.dispose());
  return executor;
}

/**
 * An engine whose `host: "sandbox"` runs in containers, with the engine's cwd as the operator's workspace, a folder
 * any container user may write (`workspace: undefined` in `options` gives the private workspace instead).
 */
export function containerEngine(daemon: DockerDaemon, options: Partial<ContainerExecutorOptions> = {}) {
  const workdir = scratchDir("container-ws-");
  chmodSync(workdir, 0o777);
  const executor = executorOn(daemon, { workspace: workdir, ...options });
  return { workdir, executor, engine: engineWith("sandbox", executor, workdir) };
}

/** Ids of the daemon's containers (running or not) with `label` (`key` or `key=value`). */
export function containersWith(daemon: DockerDaemon, label: string): string[] {
  const listed = daemon.docker(["ps", "-aq", "--no-trunc", "--filter", `label=${label}`]);
  return listed.stdout.toString().split("\n").filter(Boolean);
}

/**
 * The command lines of the processes in a container, from the host's ps (`docker top` needs no free pid inside);
 * undefined when the container is gone.
 */
export function processesIn(daemon: DockerDaemon, id: string): string[] | undefined {
  const top = daemon.docker(["top", id, "-o", "pid,args"]);
  if (top.status !== 0) return undefined;
  return top.stdout.toString().split("\n").slice(1).filter(Boolean).map((line) => line.trim().replace(/^\d+\s+/, ""));
}
