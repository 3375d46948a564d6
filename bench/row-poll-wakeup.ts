// Row 3: poll wake-up. A waiting poll; the command prints its own wall-clock time (`date +%s%N`) 100 ms later;
// the latency is from that timestamp to poll's return. Baseline: the same command under a raw spawn, timestamp
// to the 'data' event.
import { spawn } from "node:child_process";
import type { SessionEngine } from "../src/engine/index.js";
import {
  BENCH_SHELL, createBenchEngine, ctx, pollUntilDone, sessionIdOf, signalGroup, target, textOf, wallClockNs,
  type RowOptions, type RowResult,
} from "./bench-kit.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const COMMAND = "sleep 0.1; date +%s%N; exec sleep 5";
const WARMUP = 5;

function latencyMs(printed: string, returnedAt: bigint): number {
  const match = /(\d{19})/.exec(printed);
  if (!match?.[1]) throw new Error(`no timestamp in: ${printed}`);
  return Number(returnedAt - BigInt(match[1])) / 1e6;
}

/** Raw baseline: time from the command's timestamp to the 'data' event of its stdout. */
function rawWakeup(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(BENCH_SHELL, ["-c", COMMAND], { detached: true });
    child.stdout.once("data", (chunk: Buffer) => {
      const latency = latencyMs(chunk.toString("utf8"), wallClockNs());
      signalGroup(child, "SIGTERM");
      child.once("close", () => resolve(latency));
    });
    child.once("error", reject);
  });
}

/** One sample: the command's timestamp to the return of a waiting poll of `engine` (in-process, or a session host's). */
export async function pollWakeup(engine: SessionEngine): Promise<number> {
  const sessionId = sessionIdOf(await engine.exec({ command: COMMAND, background: true }, ctx));
  const result = await engine.process({ action: "poll", sessionId, timeout: 5_000 }, ctx);
  const returnedAt = wallClockNs();
  if (result.details.status !== "running") throw new Error(`poll did not wake on output: ${textOf(result)}`);
  await engine.process({ action: "kill", sessionId }, ctx);
  await pollUntilDone(engine, sessionId);
  return latencyMs(textOf(result), returnedAt);
}

export async function benchPollWakeup(options: RowOptions): Promise<RowResult> {
  const samples = options.quick ? 15 : 40;
  const engine = createBenchEngine();
  const engineWakeup = (): Promise<number> => pollWakeup(engine);
  try {
    for (let i = 0; i < WARMUP; i++) {
      await engineWakeup();
      await rawWakeup();
    }
    const engineSamples: number[] = [];
    const rawSamples: number[] = [];
    for (let i = 0; i < samples; i++) {
      engineSamples.push(await engineWakeup());
      rawSamples.push(await rawWakeup());
    }
    const engineSummary = summarize(engineSamples);
    const rawSummary = summarize(rawSamples);
    return {
      id: "poll-wakeup", title: "poll wake-up on output", metric: "write → poll return", unit: "ms", warmup: WARMUP,
      engine: engineSummary, baseline: { label: "write → raw 'data' event", ...rawSummary },
      ratio: engineSummary.median / rawSummary.median,
      targets: [target(TARGETS["poll-wakeup"].median, engineSummary.median), target(TARGETS["poll-wakeup"].p95, engineSummary.p95)],
      extra: { clockCheckMs: Number(wallClockNs() / 1_000_000n) - Date.now() },
      notes: ["The command stamps the write with `date +%s%N`; node reads the same clock via performance.timeOrigin."],
    };
  } finally {
    await engine.dispose();
  }
}
