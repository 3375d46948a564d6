// Steps for results, output caps, the registry and session ids: long exact texts built from parts, series of
// sessions started in a loop, and checks over a whole series. Everything goes through the adapter only.
import { Then, When, type DataTable } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { inline, normalize, show } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";
import { waitUntilNotLive } from "./support/waits.js";


/** Session ids started by the series steps below, per scenario, in start order. */
const seriesIds = new WeakMap<ConformanceWorld, string[]>();

function series(world: ConformanceWorld): string[] {
  let ids = seriesIds.get(world);
  if (!ids) {
    ids = [];
    seriesIds.set(world, ids);
  }
  return ids;
}

function lastSessionId(world: ConformanceWorld): string {
  const id = world.lastResult().details["sessionId"];
  assert.equal(typeof id, "string", `the exec result has no sessionId: ${JSON.stringify(world.lastResult().details)}`);
  return id as string;
}

function assertExactText(world: ConformanceWorld, expected: string): void {
  const actual = normalize(world, world.lastResult().text);
  if (actual === expected) return;
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at += 1;
  assert.fail(
    `text differs at index ${at} (lengths: actual ${actual.length}, expected ${expected.length}).\n`
    + `  expected from there: ${show(expected.slice(at, at + 120))}\n  actual from there:   ${show(actual.slice(at, at + 120))}`,
  );
}

/** "s5" → { prefix: "s", index: 5 }. */
function parseSeriesName(name: string): { prefix: string; index: number } {
  const match = /^(.*?)(\d+)$/.exec(name);
  if (!match) throw new Error(`"${name}" is not a series name such as "s5".`);
  return { prefix: match[1]!, index: Number(match[2]) };
}

function seriesRange(world: ConformanceWorld, from: string, to: string): string[] {
  const first = parseSeriesName(from);
  const last = parseSeriesName(to);
  assert.equal(first.prefix, last.prefix, `"${from}" and "${to}" belong to different series`);
  const ids: string[] = [];
  for (let i = first.index; i <= last.index; i += 1) ids.push(world.sessionId(`${first.prefix}${i}`));
  return ids;
}

// ---- series of sessions ----

// The calls are concurrent (tool calls are independent, LC-24), so that many sessions start quickly.
When("{int} background sessions run {string}", async function (this: ConformanceWorld, count: number, command: string) {
  await this.ensureStarted(); // once, before the concurrent calls, so that they share one instance
  const args = { command: inline(this, command), background: true };
  const calls = Array.from({ length: count }, () => this.startCall("exec", args));
  for (const timed of await Promise.all(calls)) {
    this.record(timed);
    series(this).push(lastSessionId(this));
  }
});

When(
  "{int} background sessions run {string} one after another as {string}",
  async function (this: ConformanceWorld, count: number, command: string, prefix: string) {
    for (let i = 0; i < count; i += 1) {
      await this.call("exec", { command: inline(this, command), background: true });
      const id = lastSessionId(this);
      series(this).push(id);
      this.vars.set(`${prefix}${i}`, id);
      await waitUntilNotLive(this, id);
    }
  },
);

Then("all {int} series session ids are distinct and match {string}", function (this: ConformanceWorld, count: number, pattern: string) {
  const ids = series(this);
  assert.equal(ids.length, count, `${ids.length} series sessions were started`);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${JSON.stringify(ids)}`);
  const regex = new RegExp(pattern);
  const bad = ids.filter((id) => !regex.test(id));
  assert.deepEqual(bad, [], `ids not matching ${pattern}`);
});

Then("no series session has the id remembered as {string}", function (this: ConformanceWorld, name: string) {
  const id = this.sessionId(name);
  assert.ok(!series(this).includes(id), `a series session reused the id ${id}`);
});

Then("the sessions {string} to {string} are listed in scope {string}", async function (this: ConformanceWorld, from: string, to: string, scope: string) {
  const listed = new Set(await this.listedSessionIds(scope));
  const missing = seriesRange(this, from, to).filter((id) => !listed.has(id));
  assert.deepEqual(missing, [], `sessions ${from}…${to} missing from the list of scope ${scope}`);
});

// An id whose record is gone is free again, and a later session of the series may draw it (about one run in a few
// hundred with 50 records): that id is listed for the later session, which says nothing about the evicted one.
Then("the sessions {string} to {string} are not listed in scope {string}", async function (this: ConformanceWorld, from: string, to: string, scope: string) {
  const listed = new Set(await this.listedSessionIds(scope));
  const range = seriesRange(this, from, to);
  const outside = series(this).filter((id, index) => series(this).indexOf(id) !== index || !range.includes(id));
  const present = range.filter((id) => listed.has(id) && !outside.includes(id));
  assert.deepEqual(present, [], `sessions ${from}…${to} should not be listed in scope ${scope}`);
});

Then("the number of sessions listed in scope {string} is {int}", async function (this: ConformanceWorld, scope: string, count: number) {
  assert.equal((await this.listedSessionIds(scope)).length, count);
});

// ---- long exact texts ----

Then(
  "the text is exactly {string} then the lines {int} to {int} then {string}",
  function (this: ConformanceWorld, prefix: string, from: number, to: number, suffix: string) {
    const lines: string[] = [];
    for (let n = from; n <= to; n += 1) lines.push(String(n));
    assertExactText(this, inline(this, prefix) + lines.join("\n") + inline(this, suffix));
  },
);

/** A table with the header `| text | times |`; cells interpret `\n` (Gherkin) and then placeholders. */
Then("the text is exactly the concatenation of:", function (this: ConformanceWorld, table: DataTable) {
  const expected = table.hashes().map((row) => {
    const times = Number(row["times"] ?? "1");
    assert.ok(Number.isInteger(times) && times >= 0, `bad times: ${row["times"]}`);
    return inline(this, row["text"] ?? "").repeat(times);
  }).join("");
  assertExactText(this, expected);
});

function occurrences(world: ConformanceWorld, needle: string): number {
  return normalize(world, world.lastResult().text).split(inline(world, needle)).length - 1;
}

Then("the text has {int} occurrences of {string}", function (this: ConformanceWorld, count: number, needle: string) {
  assert.equal(occurrences(this, needle), count, `occurrences of ${show(inline(this, needle))}`);
});

Then("the text has at most {int} occurrences of {string}", function (this: ConformanceWorld, count: number, needle: string) {
  const found = occurrences(this, needle);
  assert.ok(found <= count, `${found} occurrences of ${show(inline(this, needle))}, expected at most ${count}`);
});

// ---- the file system (REG-01, REG-14) ----

// REG-01's match: unrelated state files are allowed; no file may hold the session's command, output or id.
Then("no file under the working directory or the home directory contains {string} or the session id",
  function (this: ConformanceWorld, text: string) {
    const needles = [inline(this, text), this.sessionId()];
    const found = [this.cwd, this.env["HOME"] ?? ""].flatMap((dir) => filesContaining(dir, needles));
    assert.deepEqual(found, [], `session data written to disk: ${found.join(", ")}`);
  });

// REG-01 beyond the scenario's own folders: an implementation may keep state in the machine's temporary directory, in
// its user's home or in its working directory. These are shared with whatever else runs on the machine, so only files
// changed since the scenario started are read, and the needle is output made at run time (the part of the last text
// that `pattern` matches, e.g. a line holding the shell's pid): neither the kit's reports nor other runs contain it.
Then("no file changed during the scenario in the temporary directory, the user's home or the kit's folder contains the part of the text matching {string}",
  function (this: ConformanceWorld, pattern: string) {
    const needle = new RegExp(inline(this, pattern)).exec(normalize(this, this.lastResult().text))?.[0] ?? "";
    assert.ok(needle.length >= 8, `the text ${show(this.lastResult().text)} has no part of 8 characters or more matching ${pattern}`);
    const roots = [...new Set([tmpdir(), homedir(), process.cwd()])];
    const found = roots.flatMap((root) => changedFilesContaining(root, [needle], this.createdAt - 1000));
    assert.deepEqual(found, [], `session data written to disk: ${found.join(", ")}`);
  });

/** Folders never searched: dependency trees and caches that only tools write. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", ".npm", "proc"]);

/** Regular files under `root` (4 levels deep) changed since `sinceMs`, each read up to 8 MB, that contain a needle. */
function changedFilesContaining(root: string, needles: string[], sinceMs: number, depth = 4): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(root, entry.name);
    if (entry.isDirectory()) return depth > 1 && !SKIPPED_FOLDERS.has(entry.name) ? changedFilesContaining(path, needles, sinceMs, depth - 1) : [];
    if (!entry.isFile()) return [];
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs < sinceMs || stat.size > 8 * 1024 * 1024) return [];
    try {
      const bytes = readFileSync(path);
      return needles.some((needle) => bytes.includes(Buffer.from(needle))) ? [path] : [];
    } catch {
      return [];
    }
  });
}

/** Regular files under `dir` (at most 2000, each read up to 4 MB) whose bytes contain one of `needles`. */
function filesContaining(dir: string, needles: string[]): string[] {
  const files = (readdirSync(dir, { recursive: true }) as string[]).slice(0, 2000).map((name) => join(dir, name));
  return files.filter((file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return false;
    const bytes = readFileSync(file).subarray(0, 4 * 1024 * 1024);
    return needles.some((needle) => bytes.includes(Buffer.from(needle)));
  });
}

Then("the file {string} exists in the working directory", function (this: ConformanceWorld, path: string) {
  assert.ok(existsSync(join(this.cwd, path)), `${path} does not exist`);
});

Then("the file {string} does not exist in the working directory", function (this: ConformanceWorld, path: string) {
  assert.ok(!existsSync(join(this.cwd, path)), `${path} exists`);
});
