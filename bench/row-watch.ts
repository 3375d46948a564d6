// Row 7 (issue 34): what a watch costs on a 50 MB flood. The same background command runs with a literal watch that
// never matches and without one, interleaved; its wall time (from the start signal to the exit event) and the
// engine's CPU time are compared. A regex watch is measured too, as an extra.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionEngine, type SessionEngine } from "../src/engine/index.js";
import { BENCH_SHELL, ctx, sessionIdOf, target, type RowOptions, type RowResult } from "./bench-kit.js";
import { MB, collectGarbage } from "./proc-stats.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const TOTAL_BYTES = 50 * MB;
const LINE = "a typical line of build output: compiling module 0123456789";
const WARMUP = 2;

type Watching = { pattern: string; regex: boolean } | undefined;

export async function benchWatch(options: RowOptions): Promise<RowResult> {
  const pairs = options.quick ? 3 : 9;
  const cwd = mkdtempSync(join(tmpdir(), "bench-watch-"));
  let exited: (() => void) | undefined;
  const engine: SessionEngine = createSessionEngine({
    cwd, env: { ...process.env, SHELL: BENCH_SHELL, TERM: "dumb" }, onSystemEvent: (event) => {
      if (event.text.startsWith("Exec ")) exited?.();
    },
  });
  let run = 0;
  /** One flood: the command waits for its start file, so the watch is in place before the first byte. */
  const flood = async (watching: Watching): Promise<{ ms: number; cpuMs: number }> => {
    const go = join(cwd, `go-${run++}`);
    const command = `while [ ! -e '${go}' ]; do sleep 0.002; done; yes '${LINE}' | head -c ${TOTAL_BYTES}`;
    const sessionId = sessionIdOf(await engine.exec({ command, background: true }, ctx));
    if (watching) await engine.watch!({ sessionId, pattern: watching.pattern, regex: watching.regex }, ctx);
    collectGarbage();
    const ended = new Promise<void>((resolve) => (exited = resolve));
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    writeFileSync(go, "");
    const keepAlive = setInterval(() => undefined, 1_000); // a background session does not keep the host alive
    await ended;
    clearInterval(keepAlive);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    await engine.drainSystemEvents(ctx.scopeKey);
    await engine.process({ action: "clear", sessionId }, ctx);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  const literal: Watching = { pattern: "server ready", regex: false };
  const regex: Watching = { pattern: "ready|listening on \\d+", regex: true };
  // No literal to search for: every line goes through the regex engine.
  const bareRegex: Watching = { pattern: "\\d{4}-\\d{2}-\\d{2}", regex: true };
  try {
    for (let i = 0; i < WARMUP; i++) {
      await flood(undefined);
      await flood(literal);
      await flood(regex);
      await flood(bareRegex);
    }
    const watched: number[] = [];
    const plain: number[] = [];
    const regexWatched: number[] = [];
    const watchedCpu: number[] = [];
    const plainCpu: number[] = [];
    const regexCpu: number[] = [];
    const bareWatched: number[] = [];
    const bareCpu: number[] = [];
    const sides = [
      async () => { const r = await flood(literal); watched.push(r.ms); watchedCpu.push(r.cpuMs); },
      async () => { const r = await flood(undefined); plain.push(r.ms); plainCpu.push(r.cpuMs); },
      async () => { const r = await flood(regex); regexWatched.push(r.ms); regexCpu.push(r.cpuMs); },
      async () => { const r = await flood(bareRegex); bareWatched.push(r.ms); bareCpu.push(r.cpuMs); },
    ];
    for (let i = 0; i < pairs; i++) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) await side();
    }
    const engineSummary = summarize(watched);
    const plainSummary = summarize(plain);
    const ratio = engineSummary.median / plainSummary.median;
    return {
      id: "watch-50mb", title: "50 MB flood, background exec with a literal watch", metric: "wall time", unit: "ms",
      warmup: WARMUP, engine: engineSummary, baseline: { label: "the same flood without a watch", ...plainSummary }, ratio,
      targets: [target(TARGETS["watch-50mb"].ratio, ratio)],
      extra: {
        literalPattern: literal.pattern,
        regexPattern: regex.pattern,
        regexWatchMs: summarize(regexWatched),
        regexRatio: summarize(regexWatched).median / plainSummary.median,
        cpuMsWithWatch: summarize(watchedCpu).median,
        cpuMsWithoutWatch: summarize(plainCpu).median,
        cpuMsWithRegexWatch: summarize(regexCpu).median,
        bareRegexPattern: bareRegex.pattern,
        bareRegexWatchMs: summarize(bareWatched),
        bareRegexRatio: summarize(bareWatched).median / plainSummary.median,
        cpuMsWithBareRegexWatch: summarize(bareCpu).median,
        MBpsWithWatch: TOTAL_BYTES / MB / (engineSummary.median / 1000),
        MBpsWithoutWatch: TOTAL_BYTES / MB / (plainSummary.median / 1000),
      },
      notes: ["Wall time from the start file to the exit event; CPU time is the engine process's own (user + system)."],
    };
  } finally {
    await engine.dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
}
