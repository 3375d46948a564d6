// Row 1: per-call latency of a foreground `exec` of `true` against spawning the same shell until close.
import { createBenchEngine, ctx, rawRun, target, textOf, type RowOptions, type RowResult } from "./bench-kit.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const WARMUP = 20;
/** The six orders of the engine (0), the raw spawn (1) and the detached raw spawn (2) within a round. */
const ORDERS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]] as const;

export async function benchExecLatency(options: RowOptions): Promise<RowResult> {
  // 600 rounds: the median of 150 moved by ±3 % between runs of one build, about the engine's whole margin.
  const rounds = options.quick ? 30 : 600;
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
    // Interleaved: each round runs the three once, in one of the six orders in turn, so that a position's luck (a
    // collection due, a timer tick, the previous child's reaping) falls on each of them alike.
    const engineSamples: number[] = [];
    const rawSamples: number[] = [];
    const detachedSamples: number[] = [];
    const kinds: Array<() => Promise<void>> = [
      async () => void engineSamples.push(await execTrue()),
      async () => void rawSamples.push(await spawnTrue()),
      async () => void detachedSamples.push(await spawnTrue(true)),
    ];
    for (let i = 0; i < rounds; i++) {
      for (const kind of ORDERS[i % ORDERS.length] ?? []) await kinds[kind]?.();
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
        rounds, medianOfPairRatios: summarize(pairRatios).median, shell: "/bin/sh",
        detachedRawMs: summarize(detachedSamples), ratioVsDetachedRaw,
      },
      notes: [],
    };
  } finally {
    await engine.dispose();
  }
}
