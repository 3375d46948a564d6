// Row 4: `yes` in a backgrounded session for 10 s, polled every second. Memory stays bounded and calls are answered
// throughout: poll latency under the flood against the same poll of an idle session.
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { spawn } from "node:child_process";
import {
  BENCH_SHELL, createBenchEngine, ctx, pollUntilDone, sessionIdOf, signalGroup, sleep, target, textOf,
  type RowOptions, type RowResult,
} from "./bench-kit.js";
import { MB, RssPeakSampler, collectGarbage, liveGroupMembers, rssBytes } from "./proc-stats.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";
import type { SessionEngine } from "../src/engine/index.js";

const POLL_INTERVAL_MS = 1_000;
const IDLE_POLLS = 30;

/** Bytes written so far by the `yes` processes of a process group (/proc/<pid>/io wchar). */
function bytesWrittenByGroup(pgid: number): number {
  let total = 0;
  for (const member of liveGroupMembers(pgid)) {
    if (member.comm !== "yes") continue;
    try {
      const match = /wchar: (\d+)/.exec(readFileSync(`/proc/${member.pid}/io`, "latin1"));
      total += Number(match?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

async function timedPoll(engine: SessionEngine, sessionId: string): Promise<number> {
  const started = performance.now();
  const result = await engine.process({ action: "poll", sessionId }, ctx);
  const elapsed = performance.now() - started;
  if (result.details.status !== "running") throw new Error(`session ended: ${textOf(result)}`);
  return elapsed;
}

async function killAndWait(engine: SessionEngine, sessionId: string): Promise<void> {
  await engine.process({ action: "kill", sessionId }, ctx);
  await pollUntilDone(engine, sessionId);
}

/** Raw reference: RSS growth of draining `yes` for the same time with a plain spawn. */
async function rawFloodRssGrowth(durationMs: number): Promise<{ growthMB: number; MBps: number }> {
  collectGarbage();
  const before = rssBytes();
  const sampler = new RssPeakSampler(50);
  let bytes = 0;
  const child = spawn(BENCH_SHELL, ["-c", "yes"], { detached: true });
  child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
  const closed = new Promise((resolve) => child.once("close", resolve));
  await sleep(durationMs);
  signalGroup(child, "SIGKILL");
  await closed;
  return { growthMB: (sampler.stop() - before) / MB, MBps: bytes / MB / (durationMs / 1000) };
}

export async function benchFlood(options: RowOptions): Promise<RowResult> {
  const floodMs = options.quick ? 4_000 : 10_000;
  const engine = createBenchEngine();
  try {
    // Warm-up: a short flood, so JIT and buffers are in place before the baseline RSS is taken.
    const warm = sessionIdOf(await engine.exec({ command: "yes", background: true }, ctx));
    await sleep(500);
    await timedPoll(engine, warm);
    await killAndWait(engine, warm);

    // Baseline: the same poll on an idle session.
    const idle = sessionIdOf(await engine.exec({ command: "sleep 60", background: true }, ctx));
    const idleSamples: number[] = [];
    for (let i = 0; i < IDLE_POLLS; i++) idleSamples.push(await timedPoll(engine, idle));
    await killAndWait(engine, idle);

    collectGarbage();
    const rssBefore = rssBytes();
    const sampler = new RssPeakSampler(50);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const started = await engine.exec({ command: "yes", background: true }, ctx);
    const sessionId = sessionIdOf(started);
    const pgid = Number(started.details["pid"]);
    const floodSamples: number[] = [];
    const floodStart = performance.now();
    for (let tick = 1; tick * POLL_INTERVAL_MS <= floodMs; tick++) {
      await sleep(floodStart + tick * POLL_INTERVAL_MS - performance.now());
      floodSamples.push(await timedPoll(engine, sessionId));
    }
    const floodSeconds = (performance.now() - floodStart) / 1000;
    const written = bytesWrittenByGroup(pgid);
    const list = await engine.process({ action: "list" }, ctx);
    await killAndWait(engine, sessionId);
    loopDelay.disable();
    const peakGrowth = (sampler.stop() - rssBefore) / MB;
    const raw = await rawFloodRssGrowth(floodMs);

    const engineSummary = summarize(floodSamples);
    const idleSummary = summarize(idleSamples);
    return {
      id: "flood", title: `\`yes\` flood ${floodMs / 1000} s, poll every 1 s`, metric: "poll latency under flood",
      unit: "ms", warmup: 1, engine: engineSummary, baseline: { label: "same poll, idle session", ...idleSummary },
      ratio: engineSummary.median / idleSummary.median,
      targets: [
        target(TARGETS.flood.rssGrowth, peakGrowth),
        target(TARGETS.flood.unansweredPolls, floodMs / POLL_INTERVAL_MS - floodSamples.length),
      ],
      extra: {
        rssGrowthMB: peakGrowth,
        maxPollLatencyMs: engineSummary.max,
        eventLoopDelayMaxMs: loopDelay.max / 1e6,
        eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
        listAnswered: list.details.status === "completed",
        floodMBps: written / MB / floodSeconds,
        rawDrainMBps: raw.MBps,
        rawDrainRssGrowthMB: raw.growthMB,
      },
      notes: ["floodMBps: bytes written by `yes` (its /proc io counter) per second, i.e. what the engine consumed."],
    };
  } finally {
    await engine.dispose();
  }
}
