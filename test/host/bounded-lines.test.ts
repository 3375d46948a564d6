// src/host/bounded-lines.ts: stdio input as whole lines of at most the limit; a longer line is dropped up to its newline
// and reported with the id its first bytes hold (issue 32, attack 9).
import { describe, expect, it } from "vitest";
import { BoundedLines, OVERSIZED_ID_SCAN_BYTES, peekMessageId, type MessageId } from "../../src/host/bounded-lines.js";

/** Feeds `chunks` through a BoundedLines of `maxBytes`; resolves with what came out, in order. */
async function cut(maxBytes: number, chunks: string[]): Promise<Array<{ line: string } | { oversized: MessageId | null }>> {
  const out: Array<{ line: string } | { oversized: MessageId | null }> = [];
  const lines = new BoundedLines(maxBytes, (id) => out.push({ oversized: id }));
  lines.on("data", (chunk: Buffer) => out.push({ line: chunk.toString() }));
  const ended = new Promise((resolve) => lines.once("end", resolve));
  for (const chunk of chunks) lines.write(Buffer.from(chunk));
  lines.end();
  await ended;
  return out;
}

describe("BoundedLines", () => {
  it("passes each line within the limit on its own, with its newline, however the input is cut", async () => {
    expect(await cut(10, ["ab\ncd", "e\n\nfghij", "klmn\nrest"])).toEqual([
      { line: "ab\n" }, { line: "cde\n" }, { line: "\n" }, { line: "fghijklmn\n" },
    ]);
  });

  it("passes a line of exactly the limit and reports one a byte longer, with its id, then goes on", async () => {
    expect(await cut(14, ['{"id":7,', '"a":1}\n{"id":7,"a":12}\n{"id":8}\n'])).toEqual([
      { line: '{"id":7,"a":1}\n' }, { oversized: 7 }, { line: '{"id":8}\n' },
    ]);
  });

  it("reports a line over the limit that has no newline yet once its newline comes, and one the input ends in", async () => {
    const long = `{"jsonrpc":"2.0","id":"a-1","params":"${"x".repeat(100)}`;
    expect(await cut(50, [long, "x".repeat(500), '"}\n{"id":2}\n', long])).toEqual([
      { oversized: "a-1" }, { line: '{"id":2}\n' }, { oversized: "a-1" },
    ]);
  });
});

describe("peekMessageId", () => {
  it.each([
    ["a number id", '{"jsonrpc":"2.0","id":42,"method":"tools/call"', 42],
    ["a string id with an escape", '{"id" : "a\\"b", "method":', 'a"b'],
    ["an id after other members", '{"jsonrpc":"2.0","method":"x","id":-3}', -3],
    ["no id in the head", '{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"command":"', null],
    ["an id nested in params only", '{"params":{"id":5},"method":"x"', null],
    ["the string \"id\" as a value", '{"method":"id","params":{}', null],
    ["a number cut at the head's end", '{"id":12', null],
    ["a string cut at the head's end", '{"id":"abc', null],
    ["no JSON at all", "garbage", null],
  ])("reads %s", (_title, head, id) => {
    expect(peekMessageId(head)).toBe(id);
  });

  it("keeps the id scan to the documented head size", () => {
    expect(OVERSIZED_ID_SCAN_BYTES).toBe(4096);
  });
});
