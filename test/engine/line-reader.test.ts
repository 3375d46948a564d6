// src/engine/watch/line-reader.ts: lines of one stream, joined across pieces, with and without the literal fast path.
import { describe, expect, it } from "vitest";
import { LineReader } from "../../src/engine/watch/line-reader.js";
import { WATCH_LINE_MAX_CHARS } from "../../src/engine/settings.js";

function linesOf(pieces: string[], literal?: string): string[] {
  const reader = new LineReader();
  const lines: string[] = [];
  const mayMatch = literal === undefined ? undefined
    : (partial: string, piece: string) => (partial.slice(-(literal.length - 1) || partial.length) + piece).includes(literal);
  for (const piece of pieces) reader.push(piece, (line) => lines.push(line), mayMatch);
  reader.flush((line) => lines.push(line));
  return lines;
}

const text = "starting\r\nlistening on 3000\nready\rprogress 50%\r\ndone";

describe("LineReader", () => {
  it("ends lines at LF, CR and CRLF, and gives the unfinished last line at flush", () => {
    expect(linesOf([text])).toEqual(["starting", "listening on 3000", "ready", "progress 50%", "done"]);
  });

  it("joins a line that arrives one character per piece, CRLF split between pieces included", () => {
    expect(linesOf([...text])).toEqual(["starting", "listening on 3000", "ready", "progress 50%", "done"]);
  });

  it.each([
    ["one character per piece", 1], ["two", 2], ["three", 3], ["seven", 7],
  ])("with the literal fast path, a match split across pieces (%s) is still a line", (_name, size) => {
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
    expect(linesOf(pieces, "ready")).toContain("ready");
    expect(linesOf(pieces, "on 30")).toContain("listening on 3000");
  });

  it("skips the lines of a piece that cannot match, but keeps the line in progress", () => {
    expect(linesOf(["aaa\nbbb\nre", "ady\n"], "ready")).toEqual(["ready"]);
    expect(linesOf(["aaa\nbbb\nccc\n"], "ready")).toEqual([]);
  });

  it("keeps at most WATCH_LINE_MAX_CHARS characters of a line", () => {
    const [line] = linesOf(["x".repeat(WATCH_LINE_MAX_CHARS), "y".repeat(10), "\n"]);
    expect(line).toHaveLength(WATCH_LINE_MAX_CHARS);
    expect(line?.includes("y")).toBe(false);
  });
});
