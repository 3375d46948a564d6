// How a sandboxed command is signalled: graceful signals to the processes inside, SIGKILL to bubblewrap's group.
import {
  processGroupMembers, sessionMembers, signalProcess, type ExecutorProcess, type LocalProcess,
} from "../../engine/index.js";
import type { StartGate } from "./start-gate.js";

/**
 * The sandboxed command as the engine sees it: the queued events, bwrap's pid, the terminal's input and mode, and
 * kill. SIGTERM goes to the processes inside the sandbox only: bwrap would die of it at once and take the command down
 * without its grace period (KILL-08). It waits for the supervisor to run the shell (the start gate), so a kill
 * right after the start reaches the command too. SIGKILL goes at once to bwrap's whole group or terminal session;
 * `--die-with-parent` and the pid namespace end whatever escaped it once bwrap is gone.
 */
export function sandboxProcess(
  events: Pick<ExecutorProcess, "onOutput" | "onExit">, child: LocalProcess, startGate: StartGate,
): ExecutorProcess {
  const bwrapPid = child.pid;
  const signal = child.signal;
  const kill = signal && bwrapPid !== undefined ? (name: "SIGTERM" | "SIGKILL"): void => {
    if (name === "SIGKILL") return signal(name);
    startGate.run(() => {
      for (const pid of processesInside(bwrapPid)) signalProcess(pid, name);
    });
  } : undefined;
  const process: ExecutorProcess = {
    onOutput: events.onOutput,
    onExit: events.onExit,
    ...(bwrapPid !== undefined ? { pid: bwrapPid } : {}),
    ...(child.stdin ? { stdin: child.stdin } : {}),
    ...(kill ? { kill } : {}),
  };
  // The sandbox's own local terminal answers cursor-position requests and tracks the cursor-key mode (spawnLocal,
  // INPUT-16, KEYS-12): nothing to reply, and nothing for the engine to inspect again. A live getter, not a copy.
  if (child.pty) Object.defineProperty(process, "cursorKeyMode", { get: () => child.cursorKeyMode, enumerable: true });
  return process;
}

/**
 * A signal that reaches bwrap while it is still setting up can end it before its child armed `--die-with-parent`;
 * that child is the init of the sandbox's pid namespace and ignores SIGTERM from outside, so the sandbox would live
 * on. Once bwrap has exited, SIGKILL whatever is left in its process group: killing that init ends the namespace.
 */
export function endLeftovers(bwrapPid: number): void {
  for (const pid of processGroupMembers(bwrapPid)) signalProcess(pid, "SIGKILL");
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
