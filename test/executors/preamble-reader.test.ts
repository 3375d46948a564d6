// The start frame is found wherever the login shell's startup output puts it, however the stream is chunked; what
// precedes it is dropped, what follows it passed on; without a frame in 64 KB everything passes through.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PREAMBLE_LIMIT_BYTES, createPreambleReader, type NoFrame } from "../../src/executors/ssh/preamble-reader.js";

const MARKER = "0123456789abcdef0123456789abcdef";
const frame = (fields: string): string => `\u001e${MARKER}${fields}\u001e`;

function read(chunks: Array<string | Buffer>) {
  const frames: Array<[string | undefined, NoFrame | undefined]> = [];
  const out: Buffer[] = [];
  const reader = createPreambleReader(MARKER, (fields, missing) => frames.push([fields, missing]), (chunk) => out.push(chunk));
  for (const chunk of chunks) reader.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, "latin1"));
  reader.end();
  return { frames, output: Buffer.concat(out).toString("latin1") };
}

describe("createPreambleReader", () => {
  it("drops the startup output before the frame, reports its fields and passes on what follows", () => {
    const { frames, output } = read([`conda: base\n\u001e4242\u001e${frame(":31:900")}hello\n`, "world\n"]);
    expect(frames).toEqual([[":31:900", undefined]]);
    expect(output).toBe("hello\nworld\n");
  });

  it("finds the frame however the stream is split into chunks", () => {
    const noise = fc.string({ unit: fc.constantFrom("a", "\n", "\u001e", ":", "1", "\r", "\u001b") });
    fc.assert(fc.property(noise, fc.string(), fc.array(fc.nat(), { maxLength: 8 }), (before, after, cuts) => {
      const text = `${before}${frame(":7:")}${after}`;
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const chunks = [0, ...points].map((start, i) => text.slice(start, [...points, text.length][i]));
      const { frames, output } = read(chunks);
      expect(frames).toEqual([[":7:", undefined]]);
      expect(output).toBe(after);
    }));
  });

  it("reads the stderr marker, a frame without fields", () => {
    expect(read([`nvm: v20\n${frame("")}err\n`])).toEqual({ frames: [["", undefined]], output: "err\n" });
  });

  it("skips an opening whose closing mark does not follow within 64 bytes, and finds the real frame after it", () => {
    const { frames, output } = read([`\u001e${MARKER}${"x".repeat(100)}\u001e then ${frame(":5:")}rest`]);
    expect(frames).toEqual([[":5:", undefined]]);
    expect(output).toBe("rest");
  });

  it("passes everything through and reports the limit when no frame comes in the first 64 KB", () => {
    const flood = "y".repeat(PREAMBLE_LIMIT_BYTES + 1);
    const { frames, output } = read([flood, `${frame(":9:")}late`]);
    expect(frames).toEqual([[undefined, "limit"]]);
    expect(output).toBe(`${flood}${frame(":9:")}late`);
  });

  it("does not take a frame that starts past the first 64 KB, also when it comes in the same chunk", () => {
    const text = `${"z".repeat(PREAMBLE_LIMIT_BYTES)}${frame(":9:")}late`;
    expect(read([text])).toEqual({ frames: [[undefined, "limit"]], output: text });
  });

  it("takes a frame that starts just inside the first 64 KB", () => {
    const { frames, output } = read([`${"z".repeat(PREAMBLE_LIMIT_BYTES - 1)}${frame(":9:")}`, "late"]);
    expect(frames).toEqual([[":9:", undefined]]);
    expect(output).toBe("late");
  });

  it("passes what it held through when the stream ends without a frame", () => {
    expect(read(["only noise\n"])).toEqual({ frames: [[undefined, "end"]], output: "only noise\n" });
  });
});
