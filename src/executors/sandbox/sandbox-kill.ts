// How a sandboxed command is signalled: graceful signals to the processes inside, SIGKILL to bubblewrap's group.
import type { ChildHandle } from "../../engine/spawn/child-handle.js";
import { processGroupMembers, sendSignal, sessionMembers } from "../../engine/spawn/process-tree.js";
import type { ExecutorProcess } from "../../engine/types.js";
import type { StartGate } from "./start-gate.js";

/**
 * SIGTERM goes to the processes inside the sandbox only: bwrap would die of it at once and take the command down
 * without its grace period (KILL-08). It waits for the supervisor to run the shell (the start gate), so a kill
 * right after the start reaches the command too. SIGKILL goes at once to bwrap's whole group or terminal session;
 * `--die-with-parent` and the pid namespace end whatever escaped it once bwrap is gone.
 */
export function attachKill(process: ExecutorProcess, child: ChildHandle, startGate: StartGate): ExecutorProcess {
  const bwrapPid = child.pid;
  if (bwrapPid !== undefined) process.pid = bwrapPid;
  if (child.stdin) process.stdin = child.stdin;
  const signal = child.signal;
  if (signal && bwrapPid !== undefined) {
    process.kill = (name) => {
      if (name === "SIGKILL") return signal(name);
      startGate.run(() => {
        for (const pid of processesInside(bwrapPid)) sendSignal(pid, name);
      });
    };
  }
  // No reply: the sandbox's own terminal answers cursor-position requests (spawnWithPty, INPUT-16).
  return process;
}

/**
 * A signal that reaches bwrap while it is still setting up can end it before its child armed `--die-with-parent`;
 * that child is the init of the sandbox's pid namespace and ignores SIGTERM from outside, so the sandbox would live
 * on. Once bwrap has exited, SIGKILL whatever is left in its process group: killing that init ends the namespace.
 */
export function endLeftovers(bwrapPid: number): void {
  for (const pid of processGroupMembers(bwrapPid)) sendSignal(pid, "SIGKILL");
}

/**
 * bwrap's session (it leads one: the launch wrapper, spawned detached or on a terminal, became bwrap with the same
 * pid) without bwrap and the namespace init it forked.
 */
function processesInside(bwrapPid: number): number[] {
  const members = sessionMembers(bwrapPid);
  const init = members.find((p) => p.ppid === bwrapPid);
  return members.filter((p) => p.pid !== bwrapPid && p.pid !== init?.pid).map((p) => p.pid);
}
