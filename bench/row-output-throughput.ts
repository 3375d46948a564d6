// Row 2: 50 MB of output through a foreground exec (aggregate cap 200000) against a raw spawn draining the pipe.
import { createBenchEngine, ctx, rawRun, target, textOf, type RowOptions, type RowResult } from "./bench-kit.js";
import { MB, RssPeakSampler, collectGarbage, rssBytes } from "./proc-stats.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const TOTAL_BYTES = 50 * MB;
const LINE = "a typical line of build output: compiling module 0123456789";
const COMMAND = `yes '${LINE}' | head -c ${TOTAL_BYTES}`;
const AGGREGATE_CAP = 200_000;
const WARMUP = 2;

export async function benchOutputThroughput(options: RowOptions): Promise<RowResult> {
  const pairs = options.quick ? 3 : 9;
  const engine = createBenchEngine();
  const rssGrowth: number[] = [];
  const rawRssGrowth: number[] = [];
  const engineCpu: number[] = [];
  const rawCpu: number[] = [];
  const measure = async (run: () => Promise<void>, growth?: number[], cpu?: number[]): Promise<number> => {
    collectGarbage();
    const before = rssBytes();
    const sampler = new RssPeakSampler();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await run();
    const elapsed = performance.now() - started;
    const cpuUsed = process.cpuUsage(cpuBefore);
    const peak = sampler.stop();
    growth?.push((peak - before) / MB);
    cpu?.push((cpuUsed.user + cpuUsed.system) / 1000);
    return elapsed;
  };
  const viaEngine = async (): Promise<void> => {
    const result = await engine.exec({ command: COMMAND, yieldMs: 120_000 }, ctx);
    const text = textOf(result);
    if (result.details.status !== "completed" || !text.startsWith("[earlier output was discarded")) {
      throw new Error(`unexpected result: ${text.slice(0, 200)}`);
    }
    if ((result.details["aggregated"] as string).length > AGGREGATE_CAP) throw new Error("aggregate above the cap");
  };
  let rawBytes = 0;
  const viaRaw = (): Promise<void> => rawRun(COMMAND, (chunk) => (rawBytes += chunk.length));
  const viaDetachedRaw = (): Promise<void> => rawRun(COMMAND, undefined, true);
  try {
    for (let i = 0; i < WARMUP; i++) {
      await measure(viaRaw);
      await measure(viaEngine);
    }
    if (rawBytes !== TOTAL_BYTES * WARMUP) throw new Error(`raw side read ${rawBytes} bytes`);
    const engineSamples: number[] = [];
    const rawSamples: number[] = [];
    const detachedSamples: number[] = [];
    for (let i = 0; i < pairs; i++) {
      detachedSamples.push(await measure(viaDetachedRaw));
      if (i % 2 === 0) {
        engineSamples.push(await measure(viaEngine, rssGrowth, engineCpu));
        rawSamples.push(await measure(viaRaw, rawRssGrowth, rawCpu));
      } else {
        rawSamples.push(await measure(viaRaw, rawRssGrowth, rawCpu));
        engineSamples.push(await measure(viaEngine, rssGrowth, engineCpu));
      }
    }
    const engineSummary = summarize(engineSamples);
    const rawSummary = summarize(rawSamples);
    const ratio = engineSummary.median / rawSummary.median;
    const maxGrowth = Math.max(...rssGrowth);
    const engineProcessCpuMs = summarize(engineCpu).median;
    const rawProcessCpuMs = summarize(rawCpu).median;
    const goals = TARGETS["output-50mb"];
    return {
      id: "output-50mb", title: "50 MB output, foreground exec", metric: "wall time", unit: "ms", warmup: WARMUP,
      engine: engineSummary, baseline: { label: "spawn + drain the same pipe", ...rawSummary }, ratio,
      targets: [
        target(goals.ratio, ratio), target(goals.rssGrowth, maxGrowth), target(goals.cpuRatio, engineProcessCpuMs / rawProcessCpuMs),
      ],
      extra: {
        command: COMMAND,
        detachedRawMs: summarize(detachedSamples),
        ratioVsDetachedRaw: engineSummary.median / summarize(detachedSamples).median,
        engineMBps: TOTAL_BYTES / MB / (engineSummary.median / 1000),
        rawMBps: TOTAL_BYTES / MB / (rawSummary.median / 1000),
        engineProcessCpuMs,
        rawProcessCpuMs,
        rssGrowthMB: summarize(rssGrowth),
        rawRssGrowthMB: summarize(rawRssGrowth),
      },
      notes: ["RSS growth = peak RSS during the call (10 ms sampling) minus RSS after a full GC before it; worst run."],
    };
  } finally {
    await engine.dispose();
  }
}
