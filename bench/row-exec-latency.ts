// Row 1: per-call latency of a foreground `exec` of `true` against spawning the same shell until close.
import { createBenchEngine, ctx, rawRun, target, textOf, type RowOptions, type RowResult } from "./bench-kit.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const WARMUP = 20;

export async function benchExecLatency(options: RowOptions): Promise<RowResult> {
  const pairs = options.quick ? 30 : 150;
  const engine = createBenchEngine();
  const execTrue = async (): Promise<number> => {
    const started = performance.now();
    const result = await engine.exec({ command: "true" }, ctx);
    const elapsed = performance.now() - started;
    if (result.details.status !== "completed") throw new Error(`exec true failed: ${textOf(result)}`);
    return elapsed;
  };
  const spawnTrue = async (detached = false): Promise<number> => {
    const started = performance.now();
    await rawRun("true", undefined, detached);
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < WARMUP; i++) {
      await spawnTrue();
      await execTrue();
    }
    // Interleaved in alternating order, so machine noise and drift hit both sides alike.
    const engineSamples: number[] = [];
    const rawSamples: number[] = [];
    const detachedSamples: number[] = [];
    for (let i = 0; i < pairs; i++) {
      detachedSamples.push(await spawnTrue(true));
      if (i % 2 === 0) {
        engineSamples.push(await execTrue());
        rawSamples.push(await spawnTrue());
      } else {
        rawSamples.push(await spawnTrue());
        engineSamples.push(await execTrue());
      }
    }
    const engineSummary = summarize(engineSamples);
    const rawSummary = summarize(rawSamples);
    const ratio = engineSummary.median / rawSummary.median;
    const pairRatios = engineSamples.map((value, i) => value / (rawSamples[i] ?? Number.NaN));
    const ratioVsDetachedRaw = engineSummary.median / summarize(detachedSamples).median;
    return {
      id: "exec-true", title: "foreground exec `true`", metric: "per-call latency", unit: "ms", warmup: WARMUP,
      engine: engineSummary, baseline: { label: "spawn(sh -c true) until close", ...rawSummary }, ratio,
      targets: [target(TARGETS["exec-true"].ratio, ratio), target(TARGETS["exec-true"].ratioVsDetachedRaw, ratioVsDetachedRaw)],
      extra: {
        pairs, medianOfPairRatios: summarize(pairRatios).median, shell: "/bin/sh",
        detachedRawMs: summarize(detachedSamples), ratioVsDetachedRaw,
      },
      notes: [],
    };
  } finally {
    await engine.dispose();
  }
}
