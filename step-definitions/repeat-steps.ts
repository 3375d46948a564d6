// Steps that repeat one exec call many times side by side, for races that show in only some runs (e.g. output lost
// at exit, issue 9). Each run's final result is kept: the exec result, or for a background run its poll after exit.
import { Then, When } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { inline, normalize, parseJsonArgs, show } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";
import { waitUntilNotLive } from "./support/waits.js";

interface FinalResult {
  status: unknown;
  aggregated: string;
}

const finalResults = new WeakMap<ConformanceWorld, FinalResult[]>();


async function call(world: ConformanceWorld, tool: "exec" | "process", args: Record<string, unknown>) {
  const { outcome } = await world.startCall(tool, args);
  if (outcome.kind !== "result") throw new Error(`${tool} ${JSON.stringify(args)} was rejected: ${outcome.message}`);
  return outcome;
}

/** One run: the foreground exec result, or the poll of a background session once it has exited. */
async function runOnce(world: ConformanceWorld, args: Record<string, unknown>): Promise<FinalResult> {
  let result = await call(world, "exec", args);
  if (args["background"] === true) {
    const id = result.details["sessionId"];
    if (typeof id !== "string") throw new Error(`a background exec returned no sessionId: ${show(result.text)}`);
    await waitUntilNotLive(world, id);
    result = await call(world, "process", { action: "poll", sessionId: id });
  }
  const aggregated = result.details["aggregated"];
  return { status: result.details["status"], aggregated: normalize(world, typeof aggregated === "string" ? aggregated : "") };
}

When(
  "exec runs {string} {int} times, {int} at a time, with {string}",
  async function (this: ConformanceWorld, command: string, times: number, concurrency: number, extra: string) {
    const args = { command: inline(this, command), yieldMs: 120_000, ...parseJsonArgs(this, extra) };
    await this.ensureStarted(); // once, before the concurrent calls, so that they share one instance
    const results: FinalResult[] = [];
    let started = 0;
    const lane = async (): Promise<void> => {
      for (; started < times; ) {
        started += 1;
        results.push(await runOnce(this, args));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    finalResults.set(this, results);
  },
);

Then("every run completed with aggregated output ending in {string}", function (this: ConformanceWorld, expected: string) {
  const results = finalResults.get(this) ?? [];
  assert.ok(results.length > 0, "no repeated runs were made");
  const tail = inline(this, expected);
  const wrong = results.filter((run) => run.status !== "completed" || !run.aggregated.endsWith(tail));
  assert.deepEqual(
    wrong.map((run) => `${String(run.status)}: …${show(run.aggregated.slice(-40))}`), [],
    `${wrong.length} of ${results.length} runs did not complete with output ending in ${show(tail)}`,
  );
});
