import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputBuffer, type OutputStream } from "../../src/engine/output-buffer.js";
import { OUTPUT_PIECE_CHARS, TAIL_CHARS } from "../../src/engine/settings.js";

const EMOJI = "😀";
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

// The last `cap` code units of `text`, without a low surrogate whose high half was cut off (OUT-09).
function keepLast(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const kept = text.slice(-cap);
  return isLowSurrogate(kept.charCodeAt(0)) ? kept.slice(1) : kept;
}

describe("OutputBuffer", () => {
  describe("aggregate and tail retention (OUT-08, OUT-09, OUT-13)", () => {
    it("keeps the last cap characters and marks the output truncated and discarded", () => {
      const buffer = new OutputBuffer({ aggregateCap: 10, pendingCap: 10 });
      buffer.append("stdout", "0123456789");
      expect(buffer.truncated).toBe(false);
      expect(buffer.discarded).toBe(false);
      buffer.append("stdout", "abcdef");
      expect(buffer.aggregate).toBe("6789abcdef");
      expect(buffer.length).toBe(10);
      expect(buffer.totalOutputChars).toBe(16);
      expect(buffer.truncated).toBe(true);
      expect(buffer.discarded).toBe(true);
    });

    it("merges stdout and stderr into one aggregate in arrival order", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 100 });
      buffer.append("stdout", "out1\n");
      buffer.append("stderr", "err1\n");
      buffer.append("stdout", "out2\n");
      expect(buffer.aggregate).toBe("out1\nerr1\nout2\n");
    });

    it("drops the orphaned low surrogate when the cut splits a surrogate pair", () => {
      const buffer = new OutputBuffer({ aggregateCap: 4, pendingCap: 4 });
      buffer.append("stdout", `a${EMOJI}bcd`);
      expect(buffer.aggregate).toBe("bcd");
      expect(buffer.length).toBe(3);
      expect(buffer.discarded).toBe(true);
    });

    it("returns the last TAIL_CHARS characters untrimmed as the tail", () => {
      const buffer = new OutputBuffer({ aggregateCap: 10_000, pendingCap: 10_000 });
      buffer.append("stdout", "x".repeat(TAIL_CHARS));
      buffer.append("stderr", "  tail end \n");
      expect(buffer.tail).toBe("x".repeat(TAIL_CHARS - 12) + "  tail end \n");
      expect(buffer.tail).toBe(buffer.aggregate.slice(-TAIL_CHARS));
    });

    it("returns the whole aggregate as the tail while it is shorter than TAIL_CHARS", () => {
      const buffer = new OutputBuffer({ aggregateCap: 10_000, pendingCap: 10_000 });
      expect(buffer.tail).toBe("");
      buffer.append("stdout", "short\n");
      expect(buffer.tail).toBe("short\n");
    });

    it("keeps a surrogate pair that straddles the piece size intact (OUT-07)", () => {
      const text = `${"a".repeat(OUTPUT_PIECE_CHARS - 1)}${EMOJI}b${"c".repeat(OUTPUT_PIECE_CHARS)}`;
      const buffer = new OutputBuffer({ aggregateCap: 3 * OUTPUT_PIECE_CHARS, pendingCap: 3 * OUTPUT_PIECE_CHARS });
      buffer.append("stdout", text);
      expect(buffer.aggregate).toBe(text);
      expect(buffer.drainPending()).toBe(text);
      const capped = new OutputBuffer({ aggregateCap: OUTPUT_PIECE_CHARS + 2, pendingCap: 10 });
      capped.append("stdout", text);
      expect(capped.aggregate).toBe(`b${"c".repeat(OUTPUT_PIECE_CHARS)}`);
      expect(capped.aggregate).not.toMatch(/\p{Cs}/u);
    });

    it("rejects caps that are not positive integers", () => {
      expect(() => new OutputBuffer({ aggregateCap: 0, pendingCap: 10 })).toThrow(/aggregateCap must be a positive integer/);
      expect(() => new OutputBuffer({ aggregateCap: 10, pendingCap: 1.5 })).toThrow(/pendingCap/);
    });
  });

  describe("pending output (OUT-10, OUT-11, POLL-21)", () => {
    it("drops the oldest text of the stream over the cap and leaves the other stream alone", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 10 });
      buffer.append("stdout", "aaaaaa");
      buffer.append("stdout", "bbbbbb");
      expect(buffer.pendingOutputDropped).toBe(true);
      buffer.append("stderr", "c".repeat(12));
      expect(buffer.drainPending()).toBe(`aaaabbbbbb${"c".repeat(10)}`);
      expect(buffer.truncated).toBe(true);
      expect(buffer.discarded).toBe(false);
    });

    it("keeps the relative order of the kept chunks of both streams", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 10 });
      buffer.append("stdout", "aaaaaa");
      buffer.append("stderr", "xx");
      buffer.append("stdout", "bbbbbb");
      buffer.append("stderr", "yy");
      expect(buffer.drainPending()).toBe("aaaaxxbbbbbbyy");
    });

    it("returns exactly the last 20000 characters of a stream that printed 90000 (OUT-11 pin)", () => {
      const buffer = new OutputBuffer({ aggregateCap: 200_000, pendingCap: 20_000 });
      buffer.append("stdout", "a".repeat(70_000));
      buffer.append("stdout", "b".repeat(20_000));
      expect(buffer.drainPending()).toBe("b".repeat(20_000));
    });

    it("drains pending output once and untrimmed", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 100 });
      buffer.append("stdout", "\n  a  \n");
      expect(buffer.hasPending).toBe(true);
      expect(buffer.drainPending()).toBe("\n  a  \n");
      expect(buffer.hasPending).toBe(false);
      expect(buffer.drainPending()).toBe("");
      expect(buffer.aggregate).toBe("\n  a  \n");
    });

    it("reports a pending drop once through takePendingDropped (OUT-17)", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 3 });
      buffer.append("stdout", "abcd");
      expect(buffer.takePendingDropped()).toBe(true);
      expect(buffer.pendingOutputDropped).toBe(false);
      expect(buffer.takePendingDropped()).toBe(false);
      expect(buffer.drainPending()).toBe("bcd");
    });

    it("drops the orphaned low surrogate when the pending cut splits a surrogate pair", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 3 });
      buffer.append("stdout", `${EMOJI}ab`);
      expect(buffer.drainPending()).toBe("ab");
    });
  });

  describe("freeze (REG-03, POLL-14)", () => {
    it("ignores output appended after freeze and keeps the unread output until drained", () => {
      const buffer = new OutputBuffer({ aggregateCap: 100, pendingCap: 100 });
      buffer.append("stdout", "x".repeat(2001));
      buffer.freeze();
      buffer.append("stdout", "late");
      buffer.append("stderr", "late");
      expect(buffer.frozen).toBe(true);
      expect(buffer.aggregate).toBe("x".repeat(100));
      expect(buffer.totalOutputChars).toBe(2001);
      expect(buffer.drainPending()).toBe("x".repeat(100));
      expect(buffer.drainPending()).toBe("");
    });
  });

  describe("properties", () => {
    const appends = fc.array(
      fc.tuple(
        fc.constantFrom<OutputStream>("stdout", "stderr"),
        fc.string({ unit: fc.constantFrom("a", "b", "\n", "é", EMOJI, "你"), maxLength: 12 }),
        fc.boolean(),
      ),
      { maxLength: 40 },
    );

    it("keeps the last cap characters of everything appended as the aggregate", () => {
      fc.assert(
        fc.property(appends, fc.integer({ min: 1, max: 30 }), (steps, cap) => {
          const buffer = new OutputBuffer({ aggregateCap: cap, pendingCap: cap });
          let all = "";
          for (const [stream, text] of steps) {
            buffer.append(stream, text);
            all += text;
            expect(buffer.aggregate).toBe(keepLast(all, cap));
            expect(buffer.tail).toBe(buffer.aggregate.slice(-TAIL_CHARS));
          }
          expect(buffer.totalOutputChars).toBe(all.length);
          expect(buffer.discarded).toBe(all.length > buffer.length);
        }),
        { numRuns: 500 },
      );
    });

    it("counts the LF characters of the aggregate however it was appended, cut and read (LOG-04)", () => {
      fc.assert(
        fc.property(appends, fc.integer({ min: 1, max: 60 }), (steps, cap) => {
          const buffer = new OutputBuffer({ aggregateCap: cap, pendingCap: cap });
          let all = "";
          for (const [stream, text, asBytes] of steps) {
            const ascii = text.replace(/[^\n]/gu, "x");
            buffer.append(stream, asBytes ? Buffer.from(ascii, "latin1") : text);
            all += asBytes ? ascii : text;
            if (all.length % 3 === 0) expect(buffer.aggregate).toBe(keepLast(all, cap)); // joins the pieces
            expect(buffer.lineBreaks).toBe(keepLast(all, cap).split("\n").length - 1);
          }
        }),
        { numRuns: 500 },
      );
    });

    it("recounts a counted piece after the cap cut its front (LOG-04)", () => {
      const buffer = new OutputBuffer({ aggregateCap: 2 * OUTPUT_PIECE_CHARS, pendingCap: 10 });
      buffer.append("stdout", "\n".repeat(OUTPUT_PIECE_CHARS));
      buffer.append("stdout", Buffer.from("x".repeat(OUTPUT_PIECE_CHARS), "latin1"));
      expect(buffer.lineBreaks).toBe(OUTPUT_PIECE_CHARS);
      buffer.append("stderr", "y".repeat(10));
      expect(buffer.lineBreaks).toBe(OUTPUT_PIECE_CHARS - 10);
      expect(buffer.aggregate.split("\n").length - 1).toBe(OUTPUT_PIECE_CHARS - 10);
      expect(buffer.lineBreaks).toBe(OUTPUT_PIECE_CHARS - 10);
    });

    it("drains exactly the appended text in arrival order when nothing was dropped", () => {
      fc.assert(
        fc.property(appends, (steps) => {
          const buffer = new OutputBuffer({ aggregateCap: 10_000, pendingCap: 10_000 });
          let all = "";
          for (const [stream, text] of steps) {
            buffer.append(stream, text);
            all += text;
          }
          expect(buffer.pendingOutputDropped).toBe(false);
          expect(buffer.drainPending()).toBe(all);
        }),
        { numRuns: 500 },
      );
    });

    it("returns every appended character exactly once and in order across drains when nothing was dropped", () => {
      fc.assert(
        fc.property(appends, (steps) => {
          const buffer = new OutputBuffer({ aggregateCap: 10_000, pendingCap: 10_000 });
          let all = "";
          let drained = "";
          for (const [stream, text, drainAfter] of steps) {
            buffer.append(stream, text);
            all += text;
            if (drainAfter) drained += buffer.drainPending();
          }
          expect(drained + buffer.drainPending()).toBe(all);
        }),
        { numRuns: 500 },
      );
    });

    it("drains what a per-stream oldest-first drop model keeps, each character at most once", () => {
      const steps = fc.array(
        fc.tuple(fc.constantFrom<OutputStream>("stdout", "stderr"), fc.integer({ min: 1, max: 8 }), fc.boolean()),
        { maxLength: 40 },
      );
      fc.assert(
        fc.property(steps, fc.integer({ min: 1, max: 20 }), (plan, pendingCap) => {
          const buffer = new OutputBuffer({ aggregateCap: 10_000, pendingCap });
          // Model of OUT-11: pending characters in arrival order, each tagged with its stream.
          let model: Array<{ stream: OutputStream; char: string }> = [];
          let nextCode = 0x4e00;
          let drained = "";
          let expected = "";
          for (const [stream, length, drainAfter] of plan) {
            let text = "";
            for (let k = 0; k < length; k++) text += String.fromCharCode(nextCode++);
            buffer.append(stream, text);
            model.push(...Array.from(text, (char) => ({ stream, char })));
            let excess = model.filter((entry) => entry.stream === stream).length - pendingCap;
            model = model.filter((entry) => entry.stream !== stream || excess-- <= 0);
            if (drainAfter) {
              drained += buffer.drainPending();
              expected += model.map((entry) => entry.char).join("");
              model = [];
            }
          }
          drained += buffer.drainPending();
          expected += model.map((entry) => entry.char).join("");
          expect(drained).toBe(expected);
          expect(new Set(drained).size).toBe(drained.length);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe("plain ASCII bytes kept undecoded", () => {
    const latin1 = (text: string): Uint8Array => Buffer.from(text, "latin1");

    it("reads the same as the decoded text however strings and ASCII bytes are mixed", () => {
      const steps = fc.array(
        fc.tuple(
          fc.constantFrom<OutputStream>("stdout", "stderr"),
          fc.oneof(
            fc.string({ unit: fc.constantFrom("a", "b", "\n", "\r", "\t"), maxLength: 20 }).map((text) => ({ text, ascii: true })),
            fc.string({ unit: fc.constantFrom("a", "é", EMOJI, "你", "\n"), maxLength: 12 }).map((text) => ({ text, ascii: false })),
          ),
          fc.constantFrom("none", "drain", "read"),
        ),
        { maxLength: 40 },
      );
      fc.assert(
        fc.property(steps, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), (plan, aggregateCap, pendingCap) => {
          const mixed = new OutputBuffer({ aggregateCap, pendingCap });
          const decoded = new OutputBuffer({ aggregateCap, pendingCap });
          for (const [stream, { text, ascii }, after] of plan) {
            mixed.append(stream, ascii ? latin1(text) : text);
            decoded.append(stream, text);
            if (after === "drain") expect(mixed.drainPending()).toBe(decoded.drainPending());
            if (after === "read") expect([mixed.aggregate, mixed.tail]).toEqual([decoded.aggregate, decoded.tail]);
            expect([mixed.length, mixed.totalOutputChars, mixed.truncated, mixed.discarded, mixed.pendingOutputDropped])
              .toEqual([decoded.length, decoded.totalOutputChars, decoded.truncated, decoded.discarded, decoded.pendingOutputDropped]);
          }
          expect(mixed.tail).toBe(decoded.tail);
          expect(mixed.aggregate).toBe(decoded.aggregate);
          expect(mixed.drainPending()).toBe(decoded.drainPending());
        }),
        { numRuns: 1000 },
      );
    });

    it("copies the bytes it keeps: the caller may reuse them, and its slabs never overwrite what it still holds", () => {
      const piece = fc.tuple(fc.string({ unit: fc.constantFrom("a", "b", "c", "\n"), minLength: 1, maxLength: 7 }),
        fc.integer({ min: 1, max: 3 * OUTPUT_PIECE_CHARS }))
        .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
      const steps = fc.array(
        fc.tuple(fc.constantFrom<OutputStream>("stdout", "stderr"), piece, fc.constantFrom("none", "none", "drain", "read")),
        { maxLength: 30 },
      );
      const scratch = new Uint8Array(3 * OUTPUT_PIECE_CHARS);
      fc.assert(
        fc.property(steps, fc.integer({ min: 1, max: 8 * OUTPUT_PIECE_CHARS }), fc.integer({ min: 1, max: 4 * OUTPUT_PIECE_CHARS }),
          fc.boolean(), (plan, aggregateCap, pendingCap, freezeAtEnd) => {
            const lent = new OutputBuffer({ aggregateCap, pendingCap });
            const decoded = new OutputBuffer({ aggregateCap, pendingCap });
            for (const [stream, text, after] of plan) {
              const view = scratch.subarray(0, text.length);
              view.set(latin1(text));
              lent.append(stream, view);
              scratch.fill(0x7a); // the next read lands where this one was
              decoded.append(stream, text);
              if (after === "drain") expect(lent.drainPending()).toBe(decoded.drainPending());
              if (after === "read") expect([lent.aggregate, lent.tail]).toEqual([decoded.aggregate, decoded.tail]);
            }
            if (freezeAtEnd) {
              lent.freeze();
              decoded.freeze();
            }
            expect(lent.tail).toBe(decoded.tail);
            expect(lent.lineBreaks).toBe(decoded.lineBreaks);
            expect(lent.aggregate).toBe(decoded.aggregate);
            expect(lent.drainPending()).toBe(decoded.drainPending());
          }),
        { numRuns: 300 },
      );
    });

    it("holds no slab once frozen, and still returns the retained output", () => {
      const buffer = new OutputBuffer({ aggregateCap: 4 * OUTPUT_PIECE_CHARS, pendingCap: 2 * OUTPUT_PIECE_CHARS });
      const text = "0123456789".repeat(OUTPUT_PIECE_CHARS);
      buffer.append("stdout", latin1(text));
      buffer.append("stderr", latin1("e".repeat(OUTPUT_PIECE_CHARS)));
      expect(buffer.slabsHeld).toBeGreaterThan(0);
      buffer.freeze();
      expect(buffer.slabsHeld).toBe(0);
      expect(buffer.aggregate).toBe((text + "e".repeat(OUTPUT_PIECE_CHARS)).slice(-4 * OUTPUT_PIECE_CHARS));
      expect(buffer.drainPending()).toBe(text.slice(-2 * OUTPUT_PIECE_CHARS) + "e".repeat(OUTPUT_PIECE_CHARS));
    });

    it("splits a large ASCII chunk into pieces and keeps its last cap characters", () => {
      const text = "0123456789".repeat(2 * OUTPUT_PIECE_CHARS);
      const buffer = new OutputBuffer({ aggregateCap: 3 * OUTPUT_PIECE_CHARS + 5, pendingCap: 7 });
      buffer.append("stdout", latin1(text));
      expect(buffer.aggregate).toBe(text.slice(-(3 * OUTPUT_PIECE_CHARS + 5)));
      expect(buffer.tail).toBe(text.slice(-TAIL_CHARS));
      expect(buffer.drainPending()).toBe(text.slice(-7));
      expect(buffer.totalOutputChars).toBe(text.length);
    });
  });

  describe("cost in total output", () => {
    it("retains the last 200000 characters of a 50 MB flood appended in 64 KB chunks", () => {
      const cap = 200_000;
      const buffer = new OutputBuffer({ aggregateCap: cap, pendingCap: 30_000 });
      const chunkChars = 64 * 1024;
      const chunkCount = Math.ceil((50 * 1024 * 1024) / chunkChars);
      const chunks = Array.from({ length: 16 }, (_, k) => String.fromCharCode(0x61 + k).repeat(chunkChars));
      for (let n = 0; n < chunkCount; n++) buffer.append(n % 2 === 0 ? "stdout" : "stderr", chunks[n % 16] ?? "");
      let expected = "";
      for (let n = chunkCount - 1; expected.length < cap; n--) expected = (chunks[n % 16] ?? "") + expected;
      expect(buffer.aggregate).toBe(expected.slice(-cap));
      expect(buffer.totalOutputChars).toBe(chunkCount * chunkChars);
      expect(buffer.drainPending()).toBe(
        (chunks[(chunkCount - 2) % 16] ?? "").slice(-30_000) + (chunks[(chunkCount - 1) % 16] ?? "").slice(-30_000),
      );
    });

    it("serves the tail after every append of a 20 MB flood", () => {
      const buffer = new OutputBuffer({ aggregateCap: 200_000, pendingCap: 30_000 });
      const chunkChars = 64 * 1024;
      let last = "";
      for (let written = 0, n = 0; written < 20 * 1024 * 1024; written += chunkChars, n++) {
        last = `${n}`.padStart(chunkChars, ".");
        buffer.append("stdout", last);
        expect(buffer.tail).toBe(last.slice(-TAIL_CHARS));
      }
      expect(buffer.aggregate.endsWith(last)).toBe(true);
    });

    it("stays bounded under a flood of one-character appends", () => {
      const buffer = new OutputBuffer({ aggregateCap: 1000, pendingCap: 1000 });
      for (let n = 0; n < 1_000_000; n++) buffer.append(n % 3 === 0 ? "stderr" : "stdout", String.fromCharCode(0x61 + (n % 26)));
      expect(buffer.length).toBe(1000);
      expect(buffer.tail.length).toBe(1000);
      expect(buffer.drainPending().length).toBe(1000 + 1000);
    });
  });
});
