// Containers an executor left behind when its process died without removing them (issue 21): those whose owner
// process on this machine is gone. A container that does not run (yet) may be another live executor's, just created:
// the state alone proves nothing, and one that stopped is removed by the engine itself (AutoRemove).
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
  const leftovers = containers.filter((info) => ownerGone(info.Labels[OWNER_LABEL]));
  const removed = await Promise.all(leftovers.map((info) => docker.getContainer(info.Id).remove({ force: true }).then(() => 1, () => 0)));
  return removed.reduce<number>((sum, one) => sum + one, 0);
}
