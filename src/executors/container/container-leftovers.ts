// Containers an executor left behind when its process died without removing them (issues 21, 32): those whose owner
// process is known to be gone. The owner is named by this machine's boot id, the process's pid namespace, its pid
// and its start time: a process of the same hostname and pid in another pid namespace (a pod sharing the host's UTS)
// or a later process that reused the pid is never taken for the owner, and an owner that cannot be checked from here
// (another machine, another namespace) is never judged gone. A container that does not run (yet) may be another live
// executor's, just created: the state alone proves nothing, and one that stopped is removed by the engine itself.
import { readFileSync, readlinkSync } from "node:fs";
import type Dockerode from "dockerode";
import { EXECUTOR_LABEL, OWNER_LABEL } from "./container-spec.js";

/** `<boot id>/<pid namespace>/<pid>/<start time>` of a process of this machine, or undefined where /proc is not. */
function processIdentity(pid: number | "self"): string | undefined {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const namespace = /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/pid`))?.[1];
    const started = startTime(readFileSync(`/proc/${pid}/stat`, "utf8"));
    const id = pid === "self" ? process.pid : pid;
    return namespace && started ? `${boot}/${namespace}/${id}/${started}` : undefined;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
function startTime(stat: string): string | undefined {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

let own: string | undefined;

/** The value of OWNER_LABEL for this process; without /proc, a random one that no sweep can ever judge gone. */
export function ownerId(): string {
  own ??= processIdentity("self") ?? `unknown/${process.pid}/${Math.random().toString(36).slice(2)}`;
  return own;
}

/**
 * Whether the owner is known to be gone: same boot and pid namespace as this process, and its pid either unused or
 * used by a process that started at another time.
 */
export function ownerGone(owner: string | undefined): boolean {
  const match = /^([0-9a-f-]+)\/(\d+)\/(\d+)\/(\d+)$/.exec(owner ?? "");
  const mine = /^([0-9a-f-]+)\/(\d+)\//.exec(ownerId());
  if (!match || !mine || match[1] !== mine[1] || match[2] !== mine[2]) return false;
  const pid = Number(match[3]);
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
  }
  const now = processIdentity(pid);
  return now !== undefined && now !== owner;
}

/** Removes the leftovers; resolves with how many were removed. Errors of single removals are ignored. */
export async function removeLeftovers(docker: Dockerode): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: JSON.stringify({ label: [EXECUTOR_LABEL] }) });
  const leftovers = containers.filter((info) => ownerGone(info.Labels[OWNER_LABEL]));
  const removed = await Promise.all(leftovers.map((info) => docker.getContainer(info.Id).remove({ force: true }).then(() => 1, () => 0)));
  return removed.reduce<number>((sum, one) => sum + one, 0);
}
