// Steps for the process actions (SPEC §7, §8): one list entry by session, and a poll loop whose drained
// outputs are joined, so POLL-21 ("every character exactly once, in arrival order") can be checked.
import { Then, When } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { assertContains, inline, parseJsonArgs, show } from "./support/text.js";
import { compactDuration } from "./support/compact-duration.js";
import type { ConformanceWorld } from "./support/world.js";

const POLL_LOOP_LIMIT_MS = 20_000;
const JOINED_OUTPUTS = "joinedPollOutputs";

// The status line that ends a poll text (POLL-04, POLL-15, WAIT-05); the guidance may follow a timeout exit line.
const POLL_SUFFIX =
  /\n\n(?:Process still running\.|Process exited with [^\n]*\.|Process stopped by request \([^\n]*\)\.|No new output for [^\n]*)(?:\n\n[\s\S]*)?$/;

/** The drained output part of a poll text: without its status suffix, and empty for `(no new output)`. */
function drainedOutput(text: string): string {
  const body = text.replace(POLL_SUFFIX, "");
  return body === "(no new output)" ? "" : body;
}

Then("the listed session {string} has details containing:", function (this: ConformanceWorld, name: string, json: string) {
  assertListEntry(this, name, json);
});
Then("the listed session {string} has details containing {string}", function (this: ConformanceWorld, name: string, json: string) {
  assertListEntry(this, name, json);
});

// LIST-03/04: the runtime in the session's line is the compact duration of its entry's runtimeMs.
Then("the line of the listed session {string} shows the compact duration of its runtimeMs",
  function (this: ConformanceWorld, name: string) {
    const id = this.sessionId(name);
    const sessions = (this.lastResult().details["sessions"] ?? []) as Array<Record<string, unknown>>;
    const entry = sessions.find((s) => s["sessionId"] === id);
    assert.ok(entry, `no list entry has sessionId ${id}: ${JSON.stringify(sessions)}`);
    const runtime = compactDuration(entry["runtimeMs"] as number);
    const line = this.lastResult().text.split("\n").find((l) => l.startsWith(`${id} `));
    assert.ok(line, `no line starts with ${id}: ${JSON.stringify(this.lastResult().text)}`);
    assert.match(line, new RegExp(`^${id} \\S+ +${runtime}\\b`), `runtimeMs ${String(entry["runtimeMs"])} is ${runtime}`);
  });

/** The entry of `details.sessions` (last list result) of the session remembered as `name` contains `json`. */
function assertListEntry(world: ConformanceWorld, name: string, json: string): void {
  const id = world.sessionId(name);
  const sessions = world.lastResult().details["sessions"];
  assert.ok(Array.isArray(sessions), `details.sessions is not an array: ${JSON.stringify(world.lastResult().details)}`);
  const entry = (sessions as Array<Record<string, unknown>>).find((s) => s["sessionId"] === id);
  assert.ok(entry, `no list entry has sessionId ${id}: ${JSON.stringify(sessions)}`);
  const expected = parseJsonArgs(world, json);
  assertContains(entry, expected, `the list entry of ${id}`);
}

When("the session is polled every {int} ms until it has exited", async function (this: ConformanceWorld, everyMs: number) {
  const sessionId = this.sessionId();
  const deadline = Date.now() + POLL_LOOP_LIMIT_MS;
  let joined = "";
  for (;;) {
    const timed = await this.call("process", { action: "poll", sessionId });
    const result = this.lastResult();
    joined += drainedOutput(result.text);
    if (result.details["status"] !== "running") break;
    if (Date.now() > deadline) throw new Error(`Session ${sessionId} was still running after ${POLL_LOOP_LIMIT_MS} ms of polling.`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - timed.durationMs)));
  }
  this.vars.set(JOINED_OUTPUTS, joined);
});

function joinedOutputs(world: ConformanceWorld): string {
  const joined = world.vars.get(JOINED_OUTPUTS);
  if (joined === undefined) throw new Error("No poll loop has run in this scenario.");
  return joined;
}

Then("the joined poll outputs are {string}", function (this: ConformanceWorld, expected: string) {
  const joined = joinedOutputs(this);
  assert.equal(joined, inline(this, expected), `joined outputs ${show(joined)}`);
});

Then("the joined poll outputs equal the aggregate of the last poll", function (this: ConformanceWorld) {
  const joined = joinedOutputs(this);
  const aggregated = this.lastResult().details["aggregated"];
  assert.equal(typeof aggregated, "string", `details.aggregated is ${JSON.stringify(aggregated)}`);
  assert.equal(joined, aggregated, `joined outputs ${show(joined)}\n aggregate ${show(aggregated as string)}`);
});

// A tolerant success check for `doc` scenarios: the call resolved and did not report `status: "failed"`.
Then("the process action did not fail", function (this: ConformanceWorld) {
  const { details, text } = this.lastResult();
  assert.notEqual(details["status"], "failed", `the action failed: ${show(text)}`);
});
