// Shared helpers of the reliability tests: engines that are always disposed, scoped calls, and process-group checks
// through /proc (never a global ps: PID 1 on these machines does not reap orphans, so zombies linger system-wide).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionEngine, type LocalSessionEngine, type SessionEngineOptions, type ToolResult } from "../../src/engine/index.js";

export const SCOPE = "reliability";
export const ctx = { scopeKey: SCOPE };

const engines: LocalSessionEngine[] = [];
const dirs: string[] = [];

/** A temporary directory removed by `disposeEngines`. */
export function tempDir(prefix = "reliability-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The controlled environment of SPEC §0.8 item 4. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: tempDir("home-"), SHELL: "/bin/sh", TERM: "dumb", LANG: "C.UTF-8",
    ...extra,
  };
}

/** An engine with a temp cwd and the controlled environment; `disposeEngines` ends it. */
export function newEngine(options: SessionEngineOptions = {}): LocalSessionEngine {
  const engine = createSessionEngine({ cwd: tempDir(), env: testEnv(), ...options });
  engines.push(engine);
  return engine;
}

/** For afterEach: disposes every engine created since the last call and removes the temp directories. */
export async function disposeEngines(): Promise<void> {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const textOf = (result: ToolResult): string => result.content[0].text;

export function sessionIdOf(result: ToolResult): string {
  const id = result.details["sessionId"];
  if (typeof id !== "string") throw new Error(`expected a running result with a sessionId, got: ${textOf(result)}`);
  return id;
}

export function pidOf(result: ToolResult): number {
  const pid = result.details["pid"];
  if (typeof pid !== "number") throw new Error(`expected a pid, got: ${JSON.stringify(result.details)}`);
  return pid;
}

/** Polls until the terminal result (or a failure such as an unknown id) and returns it. */
export async function pollUntilDone(engine: LocalSessionEngine, sessionId: string): Promise<ToolResult> {
  for (;;) {
    const result = await engine.process({ action: "poll", sessionId, timeout: 30_000 }, ctx);
    if (result.details.status !== "running") return result;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true; returns false when `timeoutMs` passes first. */
export async function waitUntil(check: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
  return true;
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  comm: string;
}

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
        ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]),
      });
    } catch {
      // ended while the table was read
    }
  }
  return entries;
}

const isAlive = (entry: ProcEntry): boolean => entry.state !== "Z" && entry.state !== "X";

/** Live members of a process group. Zombies are dead processes nobody reaped yet and do not count. */
export function liveGroupMembers(pgid: number): ProcEntry[] {
  return readProcTable().filter((entry) => entry.pgid === pgid && isAlive(entry));
}

export function isProcessAlive(pid: number): boolean {
  return readProcTable().some((entry) => entry.pid === pid && isAlive(entry));
}

/** Waits until no live process is left in any of the groups; returns the survivors (empty on success). */
export async function waitForGroupsGone(pgids: readonly number[], timeoutMs = 15_000): Promise<ProcEntry[]> {
  const survivors = (): ProcEntry[] => pgids.flatMap((pgid) => liveGroupMembers(pgid));
  await waitUntil(() => survivors().length === 0, timeoutMs);
  return survivors();
}

// Group 0 or 1 (or a NaN from a failed parse) would hit this test process or everything: never signal those.
const isSignallable = (id: number): boolean => Number.isSafeInteger(id) && id > 1;

/** Last-resort cleanup for tests that deliberately leave processes behind. */
export function killGroup(pgid: number): void {
  if (!isSignallable(pgid)) return;
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function killProcess(pid: number): void {
  if (!isSignallable(pid)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
