// Types of scripts/docker-daemon.mjs.
import type { SpawnSyncReturns } from "node:child_process";
export const TEST_IMAGE: string;
export interface DockerDaemon {
  socketPath: string;
  dir: string;
  image: string;
  pid: number;
  /** Runs the docker CLI against this daemon. */
  docker(args: string[]): SpawnSyncReturns<Buffer>;
  /** Stops dockerd and removes its directory. */
  stop(): Promise<void>;
}
export function dockerUnavailableReason(): string | undefined;
export function startDockerDaemon(): Promise<DockerDaemon>;
