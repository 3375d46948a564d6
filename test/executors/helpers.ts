// Shared helpers of the executor integration tests: engines over one executor, marker processes found in /proc.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createSessionEngine, type HostExecutor, type LocalSessionEngine, type ToolResult } from "../../src/engine/index.js";

export const ctx = { scopeKey: "executors" };

const cleanups: Array<() => Promise<void> | void> = [];

/** Runs every registered cleanup, newest first. */
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export function onCleanUp(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** A directory outside /tmp (the sandbox has a private /tmp), removed by `cleanUp`. */
export function scratchDir(prefix: string, base = "/var/tmp"): string {
  const dir = mkdtempSync(join(base, prefix));
  onCleanUp(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function engineWith(host: "sandbox" | "node", executor: HostExecutor, cwd: string): LocalSessionEngine {
  const engine = createSessionEngine({
    cwd, executors: { [host]: executor },
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: cwd, SHELL: "/bin/sh", TERM: "dumb", LANG: "C.UTF-8" },
  });
  onCleanUp(() => engine.dispose());
  return engine;
}

export const textOf = (result: ToolResult): string => result.content[0].text;
export const sessionIdOf = (result: ToolResult): string => String(result.details["sessionId"]);

/** Live (not zombie) processes whose command line contains `marker`. */
export function processesWith(marker: string): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1").replaceAll("\0", " ");
      if (cmdline.includes(marker)) found.push({ pid: Number(name), cmdline });
    } catch {
      // ended while we read
    }
  }
  return found;
}

/** How many `sleep <marker>` processes run (not the shells whose command line names them). */
export function sleepers(marker: string): number {
  return processesWith(marker).filter((p) => p.cmdline.startsWith(`sleep ${marker}`)).length;
}

export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ends leftovers of a failed test so nothing keeps running, by pid. */
export function killAll(processes: Array<{ pid: number }>): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** A unique sleep duration that names the processes of one test in /proc. */
export function markerSeconds(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 900) + 100}`;
}

/** Polls a session until its terminal result (a waiting poll returns at the first output, POLL-07). */
export async function pollUntilDone(engine: LocalSessionEngine, sessionId: string): Promise<ToolResult> {
  for (;;) {
    const result = await engine.process({ action: "poll", sessionId, timeout: 10_000 }, ctx);
    if (result.details.status !== "running") return result;
  }
}

/** What `run` throws (synchronously or by rejecting), or undefined when it does not. */
export async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error;
  }
}
