// Then steps on the last call: its text, details, error flag, rejection and timing.
import { Then } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import {
  assertContains, block, describePatternMismatch, describeTextMismatch, inline, normalize, parseJsonArgs, parseValue, partialMatch, readPath, show,
} from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";

function text(world: ConformanceWorld): string {
  return normalize(world, world.lastResult().text);
}

function assertText(world: ConformanceWorld, mode: "exactly" | "starts" | "contains" | "ends" | "lacks", expected: string): void {
  const actual = text(world);
  const checks = {
    exactly: () => actual === expected,
    starts: () => actual.startsWith(expected),
    contains: () => actual.includes(expected),
    ends: () => actual.endsWith(expected),
    lacks: () => !actual.includes(expected),
  };
  if (!checks[mode]()) throw new Error(describeTextMismatch(mode, expected, actual));
}

Then("the text is exactly:", function (this: ConformanceWorld, expected: string) {
  assertText(this, "exactly", block(this, expected));
});
Then("the text is {string}", function (this: ConformanceWorld, expected: string) {
  assertText(this, "exactly", inline(this, expected));
});
Then("the text starts with:", function (this: ConformanceWorld, expected: string) {
  assertText(this, "starts", block(this, expected));
});
Then("the text starts with {string}", function (this: ConformanceWorld, expected: string) {
  assertText(this, "starts", inline(this, expected));
});
Then("the text contains:", function (this: ConformanceWorld, expected: string) {
  assertText(this, "contains", block(this, expected));
});
Then("the text contains {string}", function (this: ConformanceWorld, expected: string) {
  assertText(this, "contains", inline(this, expected));
});
Then("the text ends with:", function (this: ConformanceWorld, expected: string) {
  assertText(this, "ends", block(this, expected));
});
Then("the text ends with {string}", function (this: ConformanceWorld, expected: string) {
  assertText(this, "ends", inline(this, expected));
});
Then("the text does not contain {string}", function (this: ConformanceWorld, expected: string) {
  assertText(this, "lacks", inline(this, expected));
});
Then("the text matches:", function (this: ConformanceWorld, pattern: string) {
  const actual = text(this);
  const expected = block(this, pattern);
  if (!new RegExp(expected).test(actual)) throw new Error(describePatternMismatch(expected, actual));
});
Then("the text matches {string}", function (this: ConformanceWorld, pattern: string) {
  const actual = text(this);
  const expected = inline(this, pattern);
  if (!new RegExp(expected).test(actual)) throw new Error(describePatternMismatch(expected, actual));
});
Then("the text has {int} characters", function (this: ConformanceWorld, count: number) {
  assert.equal(text(this).length, count);
});

Then("the status is {string}", function (this: ConformanceWorld, status: string) {
  assert.equal(this.lastResult().details["status"], status, `details: ${JSON.stringify(this.lastResult().details)}`);
});
Then("the status is not {string}", function (this: ConformanceWorld, status: string) {
  assert.notEqual(this.lastResult().details["status"], status, `details: ${JSON.stringify(this.lastResult().details)}`);
});
Then("the result is an error", function (this: ConformanceWorld) {
  assert.equal(this.lastResult().isError, true);
});
Then("the result is not an error", function (this: ConformanceWorld) {
  assert.equal(this.lastResult().isError, false);
});

Then("the details contain:", function (this: ConformanceWorld, json: string) {
  const expected = parseJsonArgs(this, json);
  const { details } = this.lastResult();
  assertContains(details, expected, "details");
});
Then("the detail {string} is {string}", function (this: ConformanceWorld, path: string, value: string) {
  assert.deepEqual(readPath(this.lastResult().details, path), parseValue(this, value));
});
Then("the detail {string} is absent", function (this: ConformanceWorld, path: string) {
  assert.equal(readPath(this.lastResult().details, path), undefined, `details: ${JSON.stringify(this.lastResult().details)}`);
});
Then("the detail {string} is present", function (this: ConformanceWorld, path: string) {
  assert.notEqual(readPath(this.lastResult().details, path), undefined, `details: ${JSON.stringify(this.lastResult().details)}`);
});
Then("the detail {string} is a {word}", function (this: ConformanceWorld, path: string, type: string) {
  const value = readPath(this.lastResult().details, path);
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  const ok = actual === type || (type === "number" && actual === "integer");
  assert.ok(ok, `detail ${path} is ${JSON.stringify(value)} (${actual}), expected a ${type}`);
});
Then("the detail {string} matches {string}", function (this: ConformanceWorld, path: string, pattern: string) {
  const value = readPath(this.lastResult().details, path);
  assert.equal(typeof value, "string", `detail ${path} is ${JSON.stringify(value)}`);
  assert.match(value as string, new RegExp(inline(this, pattern)));
});
Then("the detail {string} does not contain {string}", function (this: ConformanceWorld, path: string, unexpected: string) {
  const value = readPath(this.lastResult().details, path);
  assert.equal(typeof value, "string", `detail ${path} is ${JSON.stringify(value)}`);
  assert.ok(!(value as string).includes(inline(this, unexpected)), `detail ${path} is ${show(value as string)}`);
});
Then("the detail {string} has {int} characters", function (this: ConformanceWorld, path: string, count: number) {
  const value = readPath(this.lastResult().details, path);
  assert.equal(typeof value, "string");
  assert.equal((value as string).length, count);
});
Then("the detail {string} has {int} entries", function (this: ConformanceWorld, path: string, count: number) {
  const value = readPath(this.lastResult().details, path);
  assert.ok(Array.isArray(value), `detail ${path} is not an array`);
  assert.equal(value.length, count, `detail ${path}: ${JSON.stringify(value)}`);
});
Then("the detail {string} equals the text", function (this: ConformanceWorld, path: string) {
  const result = this.lastResult();
  assert.equal(readPath(result.details, path), result.text);
});
Then("the detail {string} is between {int} and {int}", function (this: ConformanceWorld, path: string, low: number, high: number) {
  const value = readPath(this.lastResult().details, path);
  assert.equal(typeof value, "number", `detail ${path} is ${JSON.stringify(value)}`);
  // Every such detail is a time: the upper bound takes the tolerance T (SPEC §0.8 item 5), like "took at most".
  const limit = high + this.toleranceMs;
  assert.ok((value as number) >= low && (value as number) <= limit,
    `detail ${path} = ${String(value)} not in [${low}, ${high} + tolerance ${this.toleranceMs}]`);
});

function rejection(world: ConformanceWorld): { message: string; name?: string } {
  const outcome = world.lastOutcome();
  world.errorChecked = true;
  assert.equal(outcome.kind, "error", `expected the call to be rejected, got: ${JSON.stringify(outcome)}`);
  return outcome as { message: string; name?: string };
}
Then("the call is rejected with:", function (this: ConformanceWorld, expected: string) {
  assert.equal(rejection(this).message, block(this, expected));
});
Then("the call is rejected with {string}", function (this: ConformanceWorld, expected: string) {
  assert.equal(rejection(this).message, inline(this, expected));
});
Then("the call is rejected with a message containing {string}", function (this: ConformanceWorld, expected: string) {
  const { message } = rejection(this);
  assert.ok(message.includes(inline(this, expected)), `message ${show(message)}`);
});
Then("the call is rejected with a message starting with {string}", function (this: ConformanceWorld, expected: string) {
  const { message } = rejection(this);
  assert.ok(message.startsWith(inline(this, expected)), `message ${show(message)}`);
});
Then("the call is rejected with an error named {string}", function (this: ConformanceWorld, name: string) {
  assert.equal(rejection(this).name, name);
});
Then("the call is rejected", function (this: ConformanceWorld) {
  rejection(this);
});
Then("the call is not rejected", function (this: ConformanceWorld) {
  const outcome = this.lastOutcome();
  assert.equal(outcome.kind, "result", `the call was rejected: ${outcome.kind === "error" ? outcome.message : ""}`);
});

Then("the call took at least {int} ms", function (this: ConformanceWorld, ms: number) {
  assert.ok(this.last && this.last.durationMs >= ms, `the call took ${this.last?.durationMs} ms`);
});
Then("the call took at most {int} ms", function (this: ConformanceWorld, ms: number) {
  const limit = ms + this.toleranceMs;
  assert.ok(this.last && this.last.durationMs <= limit, `the call took ${this.last?.durationMs} ms (limit ${ms} + tolerance)`);
});

Then("no progress update was received", function (this: ConformanceWorld) {
  assert.deepEqual(this.lastResult().updates, []);
});
Then("at least {int} progress update(s) was/were received", function (this: ConformanceWorld, count: number) {
  assert.ok(this.lastResult().updates.length >= count, `got ${this.lastResult().updates.length} updates`);
});
Then("a progress update has text containing {string}", function (this: ConformanceWorld, expected: string) {
  const wanted = inline(this, expected);
  const { updates } = this.lastResult();
  assert.ok(updates.some((u) => normalize(this, u.text).includes(wanted)), `updates: ${JSON.stringify(updates)}`);
});
Then("every progress update has details containing:", function (this: ConformanceWorld, json: string) {
  const expected = parseJsonArgs(this, json);
  for (const update of this.lastResult().updates) {
    assert.ok(partialMatch(update.details, expected), `update details ${JSON.stringify(update.details)}`);
  }
});
