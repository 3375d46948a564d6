// The watch arguments checked once (normalize-watch.ts, issue 34): the defaults, and each wrong argument refused
// with an invalid-watch-argument error that names it, echoes what came and says what it takes.
import { describe, expect, it } from "vitest";
import { ExecProcessError, type WatchParams } from "../../src/engine/index.js";
import { WATCH_PATTERN_MAX_CHARS } from "../../src/engine/settings.js";
import { normalizeWatchParams } from "../../src/engine/watch/normalize-watch.js";

function refusal(params: Record<string, unknown>): ExecProcessError<"invalid-watch-argument"> {
  try {
    normalizeWatchParams(params as unknown as WatchParams);
  } catch (error) {
    if (ExecProcessError.is(error, "invalid-watch-argument")) return error;
    throw error;
  }
  throw new Error("expected an invalid-watch-argument error");
}

describe("normalizeWatchParams", () => {
  it("fills the defaults: a literal, once, until the session ends", () => {
    const watch = normalizeWatchParams({ sessionId: "calm-reef", pattern: "ready" });
    expect(watch).toMatchObject({ sessionId: "calm-reef", pattern: "ready", regex: false, once: true, timeoutSeconds: undefined });
    expect(watch.matcher.test("server ready")).toBe(true);
  });

  it.each([
    ["sessionId", { pattern: "ready" }, "Invalid watch sessionId: got undefined; expected the sessionId exec returned."],
    ["pattern", { sessionId: "s", pattern: "" }, 'Invalid watch pattern: got ""; expected a non-empty string.'],
    ["regex", { sessionId: "s", pattern: "x", regex: "yes" }, 'Invalid watch regex: got "yes"; expected true or false.'],
    ["once", { sessionId: "s", pattern: "x", once: 1 }, "Invalid watch once: got 1; expected true or false."],
    ["timeoutSeconds", { sessionId: "s", pattern: "x", timeoutSeconds: 0 }, "Invalid watch timeoutSeconds: got 0;"],
  ])("refuses a wrong %s, naming it", (param, params, text) => {
    const error = refusal(params);
    expect(error.data.param).toBe(param);
    expect(error.message.startsWith(text)).toBe(true);
  });

  it("refuses a literal with a line break, and a pattern over the limit", () => {
    expect(refusal({ sessionId: "s", pattern: "a\nb" }).data.expected).toBe("text without line breaks: a line never holds one");
    expect(refusal({ sessionId: "s", pattern: "x".repeat(WATCH_PATTERN_MAX_CHARS + 1) }).data.expected)
      .toBe(`at most ${WATCH_PATTERN_MAX_CHARS} characters`);
  });
});
