// Steps that let time pass or wait for an observable state, always with a bound.
import { Then, When } from "@cucumber/cucumber";
import type { CallOutcome } from "../conformance/adapter.js";
import { inline } from "./support/text.js";
import { CHECK_EVERY_MS, FINISH_LIMIT_MS, sleep, waitUntilNotLive } from "./support/waits.js";
import type { ConformanceWorld } from "./support/world.js";


When("{int} ms pass(es)", async function (this: ConformanceWorld, ms: number) {
  await sleep(ms);
});

When("{float} seconds pass", async function (this: ConformanceWorld, seconds: number) {
  await sleep(seconds * 1000);
});

const waitUntilFinished = (world: ConformanceWorld, name: string): Promise<void> => waitUntilNotLive(world, world.sessionId(name));

When("the session finishes", async function (this: ConformanceWorld) {
  await waitUntilFinished(this, "id");
});

When("the session {string} finishes", async function (this: ConformanceWorld, name: string) {
  await waitUntilFinished(this, name);
});

When("an event is queued for scope {string}", async function (this: ConformanceWorld, scope: string) {
  const instance = await this.ensureStarted();
  const deadline = Date.now() + FINISH_LIMIT_MS;
  while ((await instance.peekEvents(scope)).length === 0) {
    if (Date.now() > deadline) throw new Error(`No event was queued for scope ${scope} within ${FINISH_LIMIT_MS} ms.`);
    await sleep(CHECK_EVERY_MS);
  }
});

/** A long observation shown in a failure: its length and both ends, so that a 200 000-character log stays readable. */
function shorten(text: string): string {
  return text.length <= 400 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 150))} … ${JSON.stringify(text.slice(-150))} (${text.length} characters)`;
}

function describeLog(outcome: CallOutcome): string {
  if (outcome.kind === "error") return `the log call was rejected: ${outcome.message}`;
  return `the last log read showed the text ${shorten(outcome.text)} and the details ${shorten(JSON.stringify(outcome.details))}`;
}

/** The longest pause between two log reads of one wait. */
const LOG_CHECK_MAX_MS = 200;

/**
 * Reads the session's log until `seen` accepts it, at most `limitMs`. `log` changes nothing a later step reads
 * (LOG-01: it consumes no pending output), so waiting with it leaves the scenario's polls as they were. The pause
 * between reads doubles up to 200 ms: reading a log of 200 000 characters every 20 ms kept a single-threaded
 * stdio implementation from reading its command's output.
 */
async function waitForLog(world: ConformanceWorld, awaited: string, limitMs: number, seen: (outcome: CallOutcome) => boolean): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (let pause = CHECK_EVERY_MS; ; pause = Math.min(pause * 2, LOG_CHECK_MAX_MS)) {
    const { outcome } = await world.startCall("process", { action: "log", sessionId: world.sessionId() });
    if (seen(outcome)) return;
    const left = deadline - Date.now();
    if (left < 0) throw new Error(`Waited ${limitMs} ms for ${awaited}; ${describeLog(outcome)}.`);
    await sleep(Math.min(pause, left + 1));
  }
}

// Waits for the command's output, not for a fixed time: a host that starts slowly (a sandbox on a loaded machine)
// then still gets the scenario's whole silence after it.
When("the session's log shows {string}", async function (this: ConformanceWorld, raw: string) {
  const text = inline(this, raw);
  await waitForLog(this, `the session's log to show ${JSON.stringify(text)}`, FINISH_LIMIT_MS,
    (outcome) => outcome.kind === "result" && outcome.text.includes(text));
});

// A run of one text repeated, found without a regex: /Z{200000}/ backtracks quadratically over a long partial log.
When("the session's log shows {string} {int} times in a row", async function (this: ConformanceWorld, raw: string, count: number) {
  const run = inline(this, raw).repeat(count);
  await waitForLog(this, `the session's log to show ${JSON.stringify(raw)} ${count} times in a row`, FINISH_LIMIT_MS,
    (outcome) => outcome.kind === "result" && outcome.text.includes(run));
});

const flagged = (outcome: CallOutcome): boolean => outcome.kind === "result" && outcome.details["waitingForInput"] === true;

// The input-wait flag read from log (WAIT-08), for scenarios about what a flagged session shows, not about when.
When("the session is waiting for input", async function (this: ConformanceWorld) {
  await waitForLog(this, "the session's log to report waitingForInput true", FINISH_LIMIT_MS, flagged);
});

// A timing rule's upper bound: flagged within N ms (+ T) of this step.
Then("the session is waiting for input within {int} ms", async function (this: ConformanceWorld, ms: number) {
  await waitForLog(this, `the session's log to report waitingForInput true (at most ${ms} ms + tolerance ${this.toleranceMs})`,
    ms + this.toleranceMs, flagged);
});

// A timing rule's upper bound: the record leaves `process list` within N ms (+ T) of this step.
Then("the session leaves the list within {int} ms", async function (this: ConformanceWorld, ms: number) {
  await leavesList(this, this.sessionId(), this.scope, ms);
});
Then("the session {string} leaves the list of scope {string} within {int} ms", async function (
  this: ConformanceWorld, name: string, scope: string, ms: number,
) {
  await leavesList(this, this.sessionId(name), scope, ms);
});

async function leavesList(world: ConformanceWorld, id: string, scope: string, ms: number): Promise<void> {
  const limit = ms + world.toleranceMs;
  const deadline = Date.now() + limit;
  // A TTL wait lasts a minute: look a few hundred times, not three thousand.
  const every = Math.max(CHECK_EVERY_MS, Math.min(250, Math.floor(limit / 200)));
  for (;;) {
    const listed = await world.listedSessionIds(scope);
    if (!listed.includes(id)) return;
    const left = deadline - Date.now();
    if (left < 0) {
      throw new Error(`Session ${id} was still listed in scope ${scope} after ${ms} ms + tolerance ${world.toleranceMs}; the list held ${JSON.stringify(listed)}.`);
    }
    await sleep(Math.min(every, left + 1));
  }
}
