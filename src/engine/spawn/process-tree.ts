// Reads the Linux process table to reach processes that a plain group kill would miss (EXEC-46, PTY-08).
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

interface ProcStat { pid: number; ppid: number; pgid: number; sid: number }

function readProcStats(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const stats: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const raw = readFileSync(`/proc/${name}/stat`, "latin1");
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      stats.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) });
    } catch {
      // the process ended while we read the table
    }
  }
  return stats;
}

/** Process groups with a member in the terminal session led by `sid`. */
export function processGroupsOfSession(sid: number): number[] {
  return [...new Set(readProcStats().filter((p) => p.sid === sid).map((p) => p.pgid))];
}

/** `pid` and all of its descendants. */
export function processTree(pid: number): number[] {
  const stats = readProcStats();
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const p of stats) if (p.ppid === tree[i]) tree.push(p.pid);
  }
  return tree;
}

/** Sends a signal, ignoring processes or groups that are already gone. */
export function sendSignal(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: already gone; EPERM: not ours to signal
  }
}

/** What the given descriptors of `pid` point at (`socket:[…]`, `pipe:[…]`, paths); unreadable ones are left out. */
export function descriptorTargets(pid: number, fds: readonly number[]): string[] {
  const targets: string[] = [];
  for (const fd of fds) {
    try {
      targets.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed, or the process is gone
    }
  }
  return targets;
}

/** Processes other than this one with a descriptor open on one of `targets` (as `descriptorTargets` names them). */
export function processesHolding(targets: ReadonlySet<string>): number[] {
  if (targets.size === 0) return [];
  const holders: number[] = [];
  for (const name of listProcessIds()) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (descriptorTargets(pid, fds.map(Number)).some((target) => targets.has(target))) holders.push(pid);
  }
  return holders;
}

function listProcessIds(): string[] {
  try {
    return readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return []; // not Linux
  }
}

/** Live members of the process group `pgid`. */
export function processGroupMembers(pgid: number): number[] {
  return readProcStats().filter((p) => p.pgid === pgid).map((p) => p.pid);
}

/** Live members of the terminal session led by `sid`, with their parents. */
export function sessionMembers(sid: number): Array<{ pid: number; ppid: number }> {
  return readProcStats().filter((p) => p.sid === sid).map(({ pid, ppid }) => ({ pid, ppid }));
}
