// What every benchmark row shares: the row result shape, the engine under test and the raw-spawn baselines.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionEngine, type SessionEngine, type ToolResult } from "../src/engine/index.js";
import type { Summary } from "./stats.js";
import { describeTarget, type TargetSpec } from "./targets.js";

/** Both sides run commands with the same shell: the engine selects it from SHELL (EXEC-27). */
export const BENCH_SHELL = "/bin/sh";
export const SCOPE = "bench";

export interface Target {
  /** e.g. "ratio ≤ 1.10" */
  name: string;
  actual: number;
  limit: number;
  met: boolean;
}

export interface RowResult {
  id: string;
  title: string;
  /** What median and p95 measure, with the unit. */
  metric: string;
  unit: string;
  warmup: number;
  engine: Summary;
  /** The raw baseline measured the same way, or null when the row has none. */
  baseline: (Summary & { label: string }) | null;
  /** engine median / baseline median. */
  ratio: number | null;
  targets: Target[];
  /** Further measurements (RSS, counts, throughput). */
  extra: Record<string, unknown>;
  notes: string[];
}

export interface RowOptions {
  /** Fewer repetitions, for a smoke run. */
  quick: boolean;
}

/** Judges a measured value against its target from bench/targets.ts. */
export function target(spec: TargetSpec, actual: number): Target {
  return { name: describeTarget(spec), actual, limit: spec.limit, met: Number.isFinite(actual) && actual <= spec.limit };
}

/** An engine in a folder of its own, which goes when the row's process exits. */
export function createBenchEngine(): SessionEngine {
  const cwd = mkdtempSync(join(tmpdir(), "bench-"));
  process.once("exit", () => rmSync(cwd, { recursive: true, force: true }));
  return createSessionEngine({ cwd, env: { ...process.env, SHELL: BENCH_SHELL, TERM: "dumb" } });
}

export const ctx = { scopeKey: SCOPE };

export function textOf(result: ToolResult): string {
  return result.content[0].text;
}

export function sessionIdOf(result: ToolResult): string {
  const id = result.details["sessionId"];
  if (typeof id !== "string") throw new Error(`expected a running result, got: ${textOf(result)}`);
  return id;
}

/**
 * Raw baseline: spawn the shell with the command, drain both pipes, resolve on close. `detached` reproduces the
 * engine's own process group (EXEC-46), which on Linux also means a new session and so a new scheduler autogroup.
 */
export function rawRun(command: string, onStdout?: (chunk: Buffer) => void, detached = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(BENCH_SHELL, ["-c", command], { detached });
    child.stdout.on("data", onStdout ?? (() => {}));
    child.stderr.on("data", () => {});
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

/** Polls a session until its terminal result (or a failure such as an unknown id). */
export async function pollUntilDone(engine: SessionEngine, sessionId: string): Promise<ToolResult> {
  for (;;) {
    const result = await engine.process({ action: "poll", sessionId, timeout: 30_000 }, ctx);
    if (result.details.status !== "running") return result;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Wall clock in nanoseconds with sub-millisecond resolution, comparable with `date +%s%N`. */
export function wallClockNs(): bigint {
  const ms = performance.timeOrigin + performance.now();
  return BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1e6));
}

/** Signals the process group of a child spawned with `detached: true` (never group 0: that would be our own). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) throw new Error("the child has no pid (spawn failed)");
  process.kill(-child.pid, signal);
}
