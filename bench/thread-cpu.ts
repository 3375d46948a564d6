// Diagnostic, not a row: CPU per thread of this process (Linux /proc/self/task/*/schedstat, nanoseconds) for each
// 50 MB exec of the output-50mb row, or for its raw drain, measured as the row does: two full GCs before each call,
// once the previous call's objects are unreachable (the row runs a raw drain between two engine calls).
//
//   node --expose-gc --import tsx bench/thread-cpu.ts <engine|raw> [calls] [--no-gc]
//
// Thread 1 is the main thread; the others are V8's platform workers (GC, concurrent compilation) and libuv's pool,
// all named "node". `--no-gc` skips the full GCs before each call. Issue 36 item 4: the engine's extra CPU was on the
// workers, recompiling the output path after each call's GCs (bench/README.md).
import { readFileSync, readdirSync } from "node:fs";
import { createBenchEngine, ctx, rawRun } from "./bench-kit.js";
import { MB, collectGarbage } from "./proc-stats.js";

const COMMAND = `yes 'a typical line of build output: compiling module 0123456789' | head -c ${50 * MB}`;
const WARMUP = 2;
const [mode = "engine", callsArg = "6"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const calls = Number(callsArg);
const fullGcs = !process.argv.includes("--no-gc");

/** CPU nanoseconds of each thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      cpu.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1").split(" ")[0]));
    } catch {
      // the thread ended
    }
  }
  return cpu;
}

const engine = createBenchEngine();
const run = mode === "engine"
  ? async (): Promise<void> => void (await engine.exec({ command: COMMAND, yieldMs: 120_000 }, ctx))
  : (): Promise<void> => rawRun(COMMAND, () => {});
try {
  for (let i = 0; i < WARMUP; i++) await run();
  const perThread = new Map<string, number>();
  let processMs = 0;
  for (let i = 0; i < calls; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10)); // the previous call's session is gone by now
    if (fullGcs) collectGarbage();
    const before = threadCpu();
    const cpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpu);
    processMs += (used.user + used.system) / 1000;
    for (const [tid, ns] of threadCpu()) perThread.set(tid, (perThread.get(tid) ?? 0) + (ns - (before.get(tid) ?? 0)) / 1e6);
  }
  const main = String(process.pid);
  const workers = [...perThread].filter(([tid]) => tid !== main).reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`${mode}${fullGcs ? "" : " (no full GCs)"}, per call of ${calls}: process ${(processMs / calls).toFixed(1)} ms, ` +
    `main thread ${((perThread.get(main) ?? 0) / calls).toFixed(1)} ms, other threads ${(workers / calls).toFixed(1)} ms; ` +
    `load ${readFileSync("/proc/loadavg", "latin1").split(" ").slice(0, 3).join(" ")}`);
} finally {
  await engine.dispose();
}
