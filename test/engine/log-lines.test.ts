// src/engine/process/log-lines.ts: the lines of the retained output, found by scanning for LF from the nearer end
// (LOG-08: CRLF read as LF, one trailing empty line dropped).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countLineBreaks } from "../../src/engine/output-text.js";
import { countLines, readLines } from "../../src/engine/process/log-lines.js";

/** The LOG-08 definition the scan must match. */
const splitLines = (text: string): string[] => {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
};

describe("countLines", () => {
  it.each([
    ["", 0], ["a", 1], ["a\n", 1], ["a\nb", 2], ["a\n\n", 2], ["\n", 1], ["a\r\nb\r\n", 2],
  ])("counts %j as %i lines (LOG-08)", (text, lines) => {
    expect(countLines(text, countLineBreaks(text))).toBe(lines);
  });
});

describe("readLines", () => {
  it.each([
    ["one\ntwo\nthree\n", 1, 3, "two\nthree"],
    ["a\r\nb\r\nc", 0, 2, "a\nb"],
    ["a\r\nb\r\nc", 2, 3, "c"],
    ["a\r\r\nb", 0, 1, "a\r"],
    ["a\n\nb\n", 1, 2, ""],
    ["a\nb\n", 1, 1, ""],
  ])("reads lines of %j from %i to %i as %j (LOG-07, LOG-08)", (text, from, to, expected) => {
    expect(readLines(text, from, to, countLineBreaks(text))).toBe(expected);
  });

  it("matches split, slice and join for every window of every text", () => {
    const text = fc.array(fc.constantFrom("a", "é", "\n", "\r", "\r\n", "😀"), { maxLength: 60 }).map((parts) => parts.join(""));
    fc.assert(fc.property(text, fc.nat(), fc.nat(), (value, x, y) => {
      const lines = splitLines(value);
      const total = countLines(value, countLineBreaks(value));
      expect(total).toBe(lines.length);
      const from = total === 0 ? 0 : x % (total + 1);
      const to = from + (total - from === 0 ? 0 : y % (total - from + 1));
      expect(readLines(value, from, to, countLineBreaks(value))).toBe(lines.slice(from, to).join("\n"));
    }), { numRuns: 2000 });
  });
});
