import { describe, expect, it } from "vitest";
import type { CursorKeyMode } from "../../src/engine/key-encoder.js";
import {
  CURSOR_POSITION_REPLY, TerminalOutput, extractCursorPositionRequests, trackCursorKeyMode,
} from "../../src/engine/spawn/terminal-output.js";

const ESC = "\x1b";
const visible = (text: string): string => text.replaceAll(ESC, "ESC");

const MODE_ROWS: { chunk: string; current: CursorKeyMode; expected: CursorKeyMode }[] = [
  { chunk: `${ESC}[?1h`, current: "unknown", expected: "application" },
  { chunk: `${ESC}[?1l`, current: "unknown", expected: "normal" },
  { chunk: `start${ESC}[?1l mid ${ESC}[?1h end`, current: "normal", expected: "application" },
  { chunk: `${ESC}[?1h${ESC}[?1l`, current: "application", expected: "normal" },
  { chunk: `${ESC}[?1l${ESC}[?1h${ESC}[?1l${ESC}[?1h`, current: "normal", expected: "application" },
  { chunk: "plain output", current: "unknown", expected: "unknown" },
  { chunk: "plain output", current: "application", expected: "application" },
  { chunk: "", current: "normal", expected: "normal" },
  { chunk: `${ESC}[?1049h${ESC}[?25l`, current: "normal", expected: "normal" },
  { chunk: `${ESC}[1h[?1h`, current: "unknown", expected: "unknown" },
];

describe("cursor key mode tracking (KEYS-12)", () => {
  it.for(MODE_ROWS.map((row) => ({ ...row, label: visible(row.chunk) })))(
    "chunk $label moves mode $current to $expected",
    ({ chunk, current, expected }) => {
      expect(trackCursorKeyMode(chunk, current)).toBe(expected);
    },
  );
});

describe("cursor-position requests (INPUT-16)", () => {
  it.for([
    { chunk: "no requests", text: "no requests", requests: 0 },
    { chunk: `${ESC}[6n`, text: "", requests: 1 },
    { chunk: `${ESC}[?6n`, text: "", requests: 1 },
    { chunk: `a${ESC}[6nb${ESC}[?6nc${ESC}[6n`, text: "abc", requests: 3 },
    { chunk: `${ESC}[6n${ESC}[6n`, text: "", requests: 2 },
    { chunk: `${ESC}[5n${ESC}[?1h`, text: `${ESC}[5n${ESC}[?1h`, requests: 0 },
    { chunk: "[6n", text: "[6n", requests: 0 },
  ].map((row) => ({ ...row, label: visible(row.chunk), rest: visible(row.text) })))(
    "chunk $label leaves $rest after removing $requests request(s)",
    ({ chunk, text, requests }) => {
      expect(extractCursorPositionRequests(chunk)).toEqual({ text, requests });
    },
  );

  it("is stateless across calls", () => {
    expect(extractCursorPositionRequests(`${ESC}[6n`).requests).toBe(1);
    expect(extractCursorPositionRequests(`${ESC}[6n`).requests).toBe(1);
  });
});

describe("a terminal's output as its reader sees it", () => {
  it("answers every cursor-position request with row 1, column 1, and keeps the requests out of the text (INPUT-16)", () => {
    const replies: string[] = [];
    const output = new TerminalOutput((reply) => replies.push(reply));
    expect(output.read(`a${ESC}[6nb${ESC}[?6nc`)).toBe("abc");
    expect(replies).toEqual([CURSOR_POSITION_REPLY, CURSOR_POSITION_REPLY]);
    expect(CURSOR_POSITION_REPLY).toBe(`${ESC}[1;1R`);
  });

  it("starts in unknown cursor-key mode and keeps the last mode the program selected (KEYS-12)", () => {
    const output = new TerminalOutput(() => undefined);
    expect(output.cursorKeyMode).toBe("unknown");
    output.read(`${ESC}[?1h`);
    expect(output.cursorKeyMode).toBe("application");
    output.read("plain text");
    expect(output.cursorKeyMode).toBe("application");
    expect(output.read(`x${ESC}[?1l`)).toBe(`x${ESC}[?1l`);
    expect(output.cursorKeyMode).toBe("normal");
  });
});
