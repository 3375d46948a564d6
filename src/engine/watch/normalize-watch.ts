// The `watch` arguments checked once, at the edge (issue 34): each wrong one is an invalid-watch-argument error
// naming the parameter, what it got and what it takes.
import { ExecProcessError, type WatchParam } from "../errors.js";
import { quoteInput } from "../messages.js";
import { MS_PER_SECOND, TIMER_MAX_MS, WATCH_PATTERN_MAX_CHARS } from "../settings.js";
import type { WatchParams } from "../types.js";
import { compileLinePattern, type LinePattern } from "./line-pattern.js";

export interface NormalizedWatch {
  sessionId: string;
  pattern: string;
  regex: boolean;
  once: boolean;
  /** Undefined: until the session ends. */
  timeoutSeconds: number | undefined;
  matcher: LinePattern;
}

const MAX_TIMEOUT_SECONDS = Math.floor(TIMER_MAX_MS / MS_PER_SECOND);

export function normalizeWatchParams(params: WatchParams): NormalizedWatch {
  const sessionId = params.sessionId;
  if (typeof sessionId !== "string" || sessionId === "") invalid("sessionId", sessionId, "the sessionId exec returned");
  const pattern = params.pattern;
  if (typeof pattern !== "string" || pattern === "") invalid("pattern", pattern, "a non-empty string");
  if (pattern.length > WATCH_PATTERN_MAX_CHARS) invalid("pattern", pattern, `at most ${WATCH_PATTERN_MAX_CHARS} characters`);
  const regex = optionalBoolean("regex", params.regex, false);
  if (!regex && /[\r\n]/.test(pattern)) invalid("pattern", pattern, "text without line breaks: a line never holds one");
  const once = optionalBoolean("once", params.once, true);
  const timeout = params.timeoutSeconds;
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_SECONDS)) {
    invalid("timeoutSeconds", timeout, `a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, or none`);
  }
  return { sessionId, pattern, regex, once, timeoutSeconds: timeout, matcher: compileLinePattern(pattern, regex) };
}

function optionalBoolean(param: WatchParam, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") invalid(param, value, "true or false");
  return value;
}

function invalid(param: WatchParam, value: unknown, expected: string): never {
  throw new ExecProcessError({ code: "invalid-watch-argument", param, value: describeValue(value), expected });
}

/** A value as an error text echoes it: strings quoted and cut, other values by their type. */
function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(quoteInput(value));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value === null ? "null" : typeof value;
}
