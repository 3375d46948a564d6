// Process-level measurements read from /proc (Linux): memory, descriptors, children and process groups.
import { readFileSync, readdirSync } from "node:fs";

export const MB = 1024 * 1024;

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  comm: string;
}

/** Every process in /proc. Zombies are included; callers decide whether they count. */
export function readProcTable(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const raw = readFileSync(`/proc/${name}/stat`, "latin1");
      const close = raw.lastIndexOf(")");
      const fields = raw.slice(close + 2).split(" ");
      entries.push({
        pid: Number(name), comm: raw.slice(raw.indexOf("(") + 1, close), state: fields[0] ?? "?",
        ppid: Number(fields[1]), pgid: Number(fields[2]),
      });
    } catch {
      // the process ended while the table was read
    }
  }
  return entries;
}

/** Live (not zombie) members of a process group. PID 1 here does not reap orphans, so zombies linger. */
export function liveGroupMembers(pgid: number, table = readProcTable()): ProcEntry[] {
  return table.filter((entry) => entry.pgid === pgid && entry.state !== "Z" && entry.state !== "X");
}

/** Direct children of this process, zombies included (an unreaped child of ours is a leak). */
export function childCount(table = readProcTable()): number {
  return table.filter((entry) => entry.ppid === process.pid).length;
}

export function fdCount(): number {
  return readdirSync("/proc/self/fd").length;
}

export function rssBytes(): number {
  return process.memoryUsage.rss();
}

/** Runs a full garbage collection when node was started with --expose-gc. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** Samples the resident set size on an interval and keeps the peak. */
export class RssPeakSampler {
  readonly #timer: NodeJS.Timeout;
  #peak: number;

  constructor(intervalMs = 10) {
    this.#peak = rssBytes();
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): void {
    this.#peak = Math.max(this.#peak, rssBytes());
  }

  /** Stops sampling and returns the peak in bytes. */
  stop(): number {
    clearInterval(this.#timer);
    this.sample();
    return this.#peak;
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns the final value of `check`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}
