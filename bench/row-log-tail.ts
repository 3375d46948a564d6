// Row 6: `log` of the last 200 lines of a full 200000-character aggregate of short lines.
import { createBenchEngine, ctx, pollUntilDone, sessionIdOf, target, textOf, type RowOptions, type RowResult } from "./bench-kit.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const COMMAND = "seq 1 40000"; // 228894 characters, so the aggregate is cut to its 200000 cap
const WARMUP = 30;

/** Baseline: the plain split-slice-join a caller would write over the same string. */
function naiveTail(aggregate: string, lines: number): string {
  const all = aggregate.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all.slice(-lines).join("\n");
}

export async function benchLogTail(options: RowOptions): Promise<RowResult> {
  const calls = options.quick ? 50 : 300;
  const engine = createBenchEngine();
  try {
    const sessionId = sessionIdOf(await engine.exec({ command: COMMAND, background: true }, ctx));
    const done = await pollUntilDone(engine, sessionId);
    const aggregate = done.details["aggregated"];
    if (typeof aggregate !== "string" || aggregate.length !== 200_000) throw new Error("aggregate is not at its cap");
    const logOnce = async (): Promise<number> => {
      const started = performance.now();
      const result = await engine.process({ action: "log", sessionId }, ctx);
      const elapsed = performance.now() - started;
      if (!textOf(result).includes("40000\n\n[showing last 200 of")) throw new Error(`unexpected log: ${textOf(result).slice(-200)}`);
      return elapsed;
    };
    const naiveOnce = (): number => {
      const started = performance.now();
      naiveTail(aggregate, 200);
      return performance.now() - started;
    };
    for (let i = 0; i < WARMUP; i++) {
      await logOnce();
      naiveOnce();
    }
    const engineSamples: number[] = [];
    const naiveSamples: number[] = [];
    for (let i = 0; i < calls; i++) {
      engineSamples.push(await logOnce());
      naiveSamples.push(naiveOnce());
    }
    const engineSummary = summarize(engineSamples);
    const naiveSummary = summarize(naiveSamples);
    const ratio = engineSummary.median / naiveSummary.median;
    return {
      id: "log-tail", title: "log: last 200 of a 200000-char aggregate", metric: "per-call latency", unit: "ms",
      warmup: WARMUP, engine: engineSummary, baseline: { label: "split/slice/join of the same string", ...naiveSummary },
      ratio,
      targets: [target(TARGETS["log-tail"].ratio, ratio), target(TARGETS["log-tail"].median, engineSummary.median)],
      extra: { aggregateChars: aggregate.length, command: COMMAND },
      notes: [],
    };
  } finally {
    await engine.dispose();
  }
}
