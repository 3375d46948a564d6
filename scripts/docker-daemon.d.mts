// Types of scripts/docker-daemon.mjs.
import type { SpawnSyncReturns } from "node:child_process";
export const TEST_IMAGE: string;
export interface DockerDaemon {
  socketPath: string;
  dir: string;
  image: string;
  /** dockerd's pid; undefined for an engine given by DOCKER_SOCKET. */
  pid: number | undefined;
  /** Runs the docker CLI against this daemon. */
  docker(args: string[]): SpawnSyncReturns<Buffer>;
  /** A private dockerd only: starts it again on the same socket and state after it died; `pid` becomes the new one. */
  restart?(): Promise<void>;
  /** Stops dockerd and removes its directory (nothing for an engine given by DOCKER_SOCKET). */
  stop(): Promise<void>;
}
export function dockerUnavailableReason(): string | undefined;
/** Stops a fixture's engine process, paused or not, with its containers: SIGCONT, removal, SIGTERM, SIGKILL. */
export function stopEngineProcess(options: {
  socketPath: string; engine: import("node:child_process").ChildProcess; exited: Promise<unknown>; group?: boolean;
}): Promise<void>;
export function startDockerDaemon(): Promise<DockerDaemon>;
export function engineFromEnvironment(env?: NodeJS.ProcessEnv): DockerDaemon | undefined;
export function prepareEngine(options: {
  name: string; socketPath: string; dir: string; engine: import("node:child_process").ChildProcess; stop(): Promise<void>;
}): Promise<DockerDaemon>;
