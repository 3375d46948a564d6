// Finds processes that carry the scenario's marker variable in their environment (Linux /proc), so that the
// check works for any implementation, in any language, without knowing its process groups.
import { closeSync, openSync, readFileSync, readSync, readdirSync } from "node:fs";

export interface Survivor { pid: number; command: string }

const SETTLE_MS = 3000;
const RETRY_MS = 100;

/**
 * Where the kernel's pids stood when a scenario began: every process that carries the scenario's marker got its pid
 * after that, so a scan can skip the older ones. Pids wrap at pid_max (32768 here): a scan sees the wrap, and a
 * scenario longer than FULL_SCAN_AFTER_MS, during which they could have wrapped twice, gets a scan of every process.
 */
export interface PidMark { lastPid: number; at: number }

const FULL_SCAN_AFTER_MS = 10_000;

/** The last pid handed out in this pid namespace, now; undefined where Linux does not say. */
export function markPids(): PidMark | undefined {
  const lastPid = readLastPid();
  return lastPid === undefined ? undefined : { lastPid, at: Date.now() };
}

function readLastPid(): number | undefined {
  try {
    const value = Number(readFileSync("/proc/sys/kernel/ns_last_pid", "latin1"));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Processes whose environment holds CONFORMANCE_SCENARIO=<marker>, re-checked until none or SETTLE_MS passed; with
 * `since`, only those whose pids came after it.
 */
export async function findSurvivors(marker: string, since?: PidMark): Promise<Survivor[]> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const found = scan(marker, since);
    if (found.length === 0 || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

export function killSurvivors(survivors: Survivor[]): void {
  for (const { pid } of survivors) {
    try { process.kill(pid, "SIGKILL"); } catch { /* already gone */ }
  }
}

// Every scenario scans the processes once: with synchronous reads into one buffer a scan of 250 processes costs about
// 3 ms of CPU, against 15 ms with a promise per file, and the kit's passes run thousands of scenarios; reading only
// the processes younger than the scenario costs a fraction of that (issue 36).
function scan(marker: string, since?: PidMark): Survivor[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return []; // not Linux: the check is documented as Linux-only (INTERPRETING.md)
  }
  // Read after the listing: every pid listed was handed out before it.
  const isYounger = pidWindow(since, readLastPid());
  const entry = Buffer.from(`\0CONFORMANCE_SCENARIO=${marker}\0`, "latin1");
  const found: Survivor[] = [];
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid || !isYounger(pid)) continue;
    try {
      if (!holdsEntry(`/proc/${name}/environ`, entry)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (/\) Z /.test(stat)) continue; // a zombie has exited; PID 1 may never reap it (TOOLCHAIN.md)
      found.push({ pid, command: readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").join(" ").trim() });
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return found;
}

/** Whether a pid may have been handed out after `since`, given the last pid handed out now. */
export function pidWindow(since: PidMark | undefined, lastPid: number | undefined, now = Date.now()): (pid: number) => boolean {
  if (since === undefined || lastPid === undefined || now - since.at > FULL_SCAN_AFTER_MS) return () => true;
  const from = since.lastPid;
  if (lastPid >= from) return (pid) => pid > from && pid <= lastPid;
  return (pid) => pid > from || pid <= lastPid; // the pids wrapped at pid_max since
}

const chunk = Buffer.alloc(64 * 1024);

/**
 * Whether a NUL-separated file holds `entry` (`\0NAME=value\0`, so a whole variable and no longer one). Read in
 * chunks, each starting with the end of the one before, so that an entry across two chunks is found too.
 */
function holdsEntry(path: string, entry: Buffer): boolean {
  const fd = openSync(path, "r");
  try {
    chunk[0] = 0; // the first variable follows no NUL
    let carried = 1;
    for (;;) {
      const read = readSync(fd, chunk, carried, chunk.length - carried, null);
      const end = carried + read;
      if (chunk.subarray(0, end).includes(entry)) return true;
      if (read === 0) return false;
      carried = Math.min(entry.length - 1, end);
      chunk.copy(chunk, 0, end - carried, end);
    }
  } finally {
    closeSync(fd);
  }
}
