// Text helpers shared by every step: placeholders, escapes, normalisation and partial matching.
// The rules here are documented for implementers in conformance/INTERPRETING.md.
import type { ConformanceWorld } from "./world.js";

/** Timeout guidance `<G>` (RES-15) and background hint `<H>` (RES-16), as SPEC pins them. */
export const GUIDANCE =
  "The command was terminated, but external side effects may already have completed. Verify the resulting state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry.";
export const BACKGROUND_HINT =
  "If it should keep running, start it with exec background=true or yieldMs so OpenClaw can register a pollable process session. Do not rely on shell backgrounding with a trailing &.";

/**
 * Replaces `<id>`, `<id8>`, `<G>`, `<H>`, `<cwd>`, `<home>`, remembered names `<name>` / `<name8>` and
 * `<wait for update N>` (a shell command, ConformanceWorld.waitForUpdateCommand).
 * Unknown placeholders are left as they are (so `<pid>` in a regex stays literal).
 */
export function substitute(world: ConformanceWorld, text: string): string {
  const waited = text.replace(/<wait for update ([1-9][0-9]*)>/g, (_whole, count: string) => world.waitForUpdateCommand(Number(count)));
  return waited.replace(/<([A-Za-z][A-Za-z0-9_]*)>/g, (whole, name: string) => {
    if (name === "G") return GUIDANCE;
    if (name === "H") return BACKGROUND_HINT;
    if (name === "cwd") return world.cwd;
    if (name === "home") return world.env["HOME"] ?? whole;
    const direct = world.vars.get(name);
    if (direct !== undefined) return direct;
    if (name.endsWith("8")) {
      const full = world.vars.get(name.slice(0, -1));
      if (full !== undefined) return full.slice(0, 8);
    }
    return whole;
  });
}

/** Interprets `\n`, `\r`, `\t`, `\\`, `\"`, `\xNN` and `\uNNNN` in one-line step strings. */
export function unescape(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[nrt\\"'])/g, (_whole, code: string) => {
    switch (code[0]) {
      case "n": return "\n";
      case "r": return "\r";
      case "t": return "\t";
      case "x":
      case "u": return String.fromCharCode(parseInt(code.slice(1), 16));
      default: return code;
    }
  });
}

/** The one normaliser: PTY scenarios compare with CRLF turned into LF; nothing else is changed. */
export function normalize(world: ConformanceWorld, text: string): string {
  return world.pty ? text.replace(/\r\n/g, "\n") : text;
}

/** A one-line step string: escapes interpreted, then placeholders substituted. */
export function inline(world: ConformanceWorld, text: string): string {
  return substitute(world, unescape(text));
}

/** A doc string: literal, placeholders substituted. */
export function block(world: ConformanceWorld, text: string): string {
  return substitute(world, text);
}

/** Parses a JSON doc string or one-line argument after placeholder substitution. */
export function parseJsonArgs(world: ConformanceWorld, text: string): Record<string, unknown> {
  const substituted = substitute(world, text);
  try {
    const value: unknown = JSON.parse(substituted);
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
    return value as Record<string, unknown>;
  } catch (error) {
    throw new Error(`The step argument must be a JSON object, got: ${substituted} (${(error as Error).message})`);
  }
}

/** A value written in a step: JSON when it parses (`0`, `true`, `null`, `"0"`), else the plain string. */
export function parseValue(world: ConformanceWorld, text: string): unknown {
  const substituted = inline(world, text);
  try {
    return JSON.parse(substituted);
  } catch {
    return substituted;
  }
}

/** Reads `a.b.0.c` from an object. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** True when every key of `expected` matches in `actual` (objects recursively; arrays element-wise, same length). */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(actual, expected);
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length
      && expected.every((item, index) => partialMatch(actual[index], item));
  }
  if (actual === null || typeof actual !== "object") return false;
  return Object.entries(expected).every(([key, item]) => partialMatch((actual as Record<string, unknown>)[key], item));
}

/** Shows a text with its control characters visible, for assertion messages. */
export function show(text: string): string {
  return JSON.stringify(text);
}

/** Characters shown before and after the first difference of a failed text check. */
const EXCERPT_BEFORE = 40;
const EXCERPT_AFTER = 80;

/** `text` quoted around character `at`, with `…` where it is cut and its length when it is cut (issue 37). */
export function showAround(text: string, at: number): string {
  const start = Math.max(0, at - EXCERPT_BEFORE);
  const end = Math.min(text.length, at + EXCERPT_AFTER);
  if (start === 0 && end === text.length) return show(text);
  return `${start > 0 ? "…" : ""}${show(text.slice(start, end))}${end < text.length ? "…" : ""} (${text.length} chars)`;
}

/** The first character where two texts differ (the shorter one's length when one starts the other). */
export function firstDifference(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
}

/** Where `expected` stops matching in `actual` for a check: the place a reader of a failure should look at. */
export function differenceAt(mode: "exactly" | "starts" | "contains" | "ends" | "lacks", expected: string, actual: string): { expected: number; actual: number } {
  if (mode === "exactly" || mode === "starts") {
    const at = firstDifference(expected, actual);
    return { expected: at, actual: at };
  }
  if (mode === "ends") {
    const fromEnd = firstDifference([...expected].reverse().join(""), [...actual].reverse().join(""));
    return { expected: expected.length - fromEnd, actual: actual.length - fromEnd };
  }
  if (mode === "lacks") {
    const at = actual.indexOf(expected);
    return { expected: 0, actual: at };
  }
  // contains: the longest head of `expected` that `actual` holds, and where it ends there.
  let low = 0;
  let high = expected.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (actual.includes(expected.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  return { expected: low, actual: low === 0 ? 0 : actual.indexOf(expected.slice(0, low)) + low };
}

/** A failed text check: what was expected and what was received, each shortened around the first difference. */
export function describeTextMismatch(mode: "exactly" | "starts" | "contains" | "ends" | "lacks", expected: string, actual: string): string {
  const at = differenceAt(mode, expected, actual);
  return `text check "${mode}" failed (first difference at character ${at.actual} of the text).\n`
    + `  expected: ${showAround(expected, at.expected)}\n  received: ${showAround(actual, at.actual)}`;
}

/** A text that does not match a pattern: the pattern whole and the text shortened (its head and its tail). */
export function describePatternMismatch(pattern: string, actual: string): string {
  const received = actual.length <= EXCERPT_BEFORE + EXCERPT_AFTER ? show(actual)
    : `${show(actual.slice(0, EXCERPT_BEFORE))}…${show(actual.slice(-EXCERPT_AFTER))} (${actual.length} chars, ${actual.split("\n").length} lines)`;
  return `text does not match the pattern.\n  expected: matching /${pattern}/\n  received: ${received}`;
}

/**
 * Where `actual` differs from the partial `expected` (partialMatch): one line per differing key path, with the
 * expected and the actual value; empty when they match.
 */
export function describeMismatches(actual: unknown, expected: unknown, path = ""): string[] {
  if (partialMatch(actual, expected)) return [];
  const here = path === "" ? "(the whole value)" : path;
  if (expected === null || typeof expected !== "object" || actual === null || typeof actual !== "object"
    || Array.isArray(expected) !== Array.isArray(actual) || (Array.isArray(expected) && (actual as unknown[]).length !== expected.length)) {
    return [`${here}: expected ${JSON.stringify(expected)}, actual ${actual === undefined ? "absent" : JSON.stringify(actual)}`];
  }
  return Object.entries(expected).flatMap(([key, item]) =>
    describeMismatches((actual as Record<string, unknown>)[key], item, path === "" ? key : `${path}.${key}`));
}

/** Fails with the differing keys named, then the whole actual value (no meaningless true/false diff). */
export function assertContains(actual: unknown, expected: unknown, what: string): void {
  const mismatches = describeMismatches(actual, expected);
  if (mismatches.length === 0) return;
  throw new Error(`${what} differ${mismatches.length === 1 ? "s" : ""} from the expected fields:\n  ${mismatches.join("\n  ")}\n${what}: ${JSON.stringify(actual)}`);
}
