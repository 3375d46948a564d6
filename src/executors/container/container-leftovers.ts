// Containers an executor left behind when its process died without removing them (issue 21): any of this
// package's containers that no longer runs, and those whose owner process on this machine is gone.
import { hostname } from "node:os";
import type Dockerode from "dockerode";
import { EXECUTOR_LABEL, OWNER_LABEL } from "./container-spec.js";

/** `<hostname>:<pid>` of this process, the value of OWNER_LABEL. */
export function ownerId(): string {
  return `${hostname()}:${process.pid}`;
}

/** Whether the owner `<hostname>:<pid>` is known to be gone: only a process of this machine can be checked. */
export function ownerGone(owner: string | undefined): boolean {
  const match = /^(.*):(\d+)$/.exec(owner ?? "");
  if (!match || match[1] !== hostname()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Removes the leftovers; resolves with how many were removed. Errors of single removals are ignored. */
export async function removeLeftovers(docker: Dockerode): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: JSON.stringify({ label: [EXECUTOR_LABEL] }) });
  const leftovers = containers.filter((info) => info.State !== "running" || ownerGone(info.Labels[OWNER_LABEL]));
  const removed = await Promise.all(leftovers.map((info) => docker.getContainer(info.Id).remove({ force: true }).then(() => 1, () => 0)));
  return removed.reduce<number>((sum, one) => sum + one, 0);
}
