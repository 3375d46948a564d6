// conformance/adapters/line-reader.ts: lines of a byte stream, in linear time, with a bound and the last line.
import { describe, expect, it } from "vitest";
import { LineReader, OVERLONG_HEAD_BYTES } from "../../conformance/adapters/line-reader.js";

function read(chunks: Array<Buffer | string>, maxLineBytes?: number, ended = true) {
  const seen: Array<[string, string | number, boolean]> = [];
  const reader = new LineReader({
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    onLine: (line, terminated) => void seen.push(["line", line, terminated]),
    onOverlong: (head, bytes, terminated) => void seen.push([`overlong ${head}`, bytes, terminated]),
  });
  for (const chunk of chunks) reader.push(chunk);
  if (ended) reader.end();
  return seen;
}

describe("LineReader", () => {
  it("reports each line once its newline arrives, however the chunks split it", () => {
    expect(read(["a", "b\nc", "d\n", "\n", "e\nf\n"])).toEqual([
      ["line", "ab", true], ["line", "cd", true], ["line", "", true], ["line", "e", true], ["line", "f", true],
    ]);
  });

  it("decodes a character whose UTF-8 bytes arrive in two chunks", () => {
    const bytes = Buffer.from("é€\n");
    expect(read([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)])).toEqual([["line", "é€", true]]);
  });

  it("reports a last line without a newline as unterminated when the input ends, and nothing after a newline", () => {
    expect(read(["x\ny"])).toEqual([["line", "x", true], ["line", "y", false]]);
    expect(read(["x\n"])).toEqual([["line", "x", true]]);
    expect(read(["x\ny"], undefined, false)).toEqual([["line", "x", true]]);
  });

  it("keeps a line of exactly the limit and reports a longer one with its head and length, then reads on", () => {
    expect(read(["abcd\n"], 4)).toEqual([["line", "abcd", true]]);
    expect(read(["abc", "de\nok\n"], 4)).toEqual([["overlong abcde", 5, true], ["line", "ok", true]]);
  });

  it("keeps only the first bytes of an over-long line, however long it grows", () => {
    const chunk = Buffer.alloc(65_536, "y");
    const seen = read([...Array.from({ length: 64 }, () => chunk), "\n"], 1000, false);
    expect(seen).toEqual([[`overlong ${"y".repeat(OVERLONG_HEAD_BYTES)}`, 64 * 65_536, true]]);
  });

  it("reports an over-long last line without a newline as unterminated", () => {
    expect(read(["abcdef"], 4)).toEqual([["overlong abcdef", 6, false]]);
  });
});
