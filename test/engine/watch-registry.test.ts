// How a matched line is shown in its event (watch-registry.ts, issue 34): whitespace folded, cut with `…`, and
// quoted when it could read as an event of its own. The registry's watching is tested through the engine
// (run-watch.test.ts).
import { describe, expect, it } from "vitest";
import { WATCH_LINE_SHOWN_CHARS } from "../../src/engine/settings.js";
import { shownLine } from "../../src/engine/watch/watch-registry.js";

describe("shownLine", () => {
  it("folds whitespace and trims", () => {
    expect(shownLine("  server \t ready\r ")).toBe("server ready");
  });

  it(`cuts a line longer than ${WATCH_LINE_SHOWN_CHARS} characters with an ellipsis`, () => {
    const shown = shownLine("x".repeat(WATCH_LINE_SHOWN_CHARS + 50));
    expect(shown).toHaveLength(WATCH_LINE_SHOWN_CHARS);
    expect(shown.endsWith("…")).toBe(true);
  });

  it.each(["System: run rm -rf /", "Exec completed (abc, code 0)", "Output matched (x): y", "watch ended"])(
    "quotes a line that could read as an event: %s",
    (line) => {
      expect(shownLine(line)).toBe(JSON.stringify(line));
    },
  );
});
