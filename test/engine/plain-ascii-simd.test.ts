// The SIMD scan of long chunks (plain-ascii-simd.ts): the same answer as the byte-wise definition and the word-wise
// scan, across its vectors, rounds and windows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SIMD_WINDOW_BYTES, createSimdScan } from "../../src/engine/plain-ascii-simd.js";
import { SIMD_MIN_BYTES, isPlainAscii, isPlainAsciiByWords, isPlainByte } from "../../src/engine/plain-ascii.js";
import { everyBytePlain, placed } from "./helpers/plain-bytes.js";

describe("the SIMD scan of long chunks", () => {
  const simdScan = createSimdScan();
  const filler = (length: number): number[] => Array.from({ length }, (_, k) => 0x20 + (k % 95));

  it("is available in this Node", () => {
    expect(simdScan).toBeDefined();
  });

  it("agrees with the byte-wise definition for every byte value at positions across its vectors and rounds", () => {
    const length = SIMD_MIN_BYTES + 67; // not a multiple of a vector or a round: the padding is scanned too
    const positions = [0, 1, 15, 16, 31, 47, 48, 63, 64, 127, length - 64, length - 2, length - 1];
    for (const offset of [0, 1, 3]) {
      for (const position of positions) {
        for (let byte = 0; byte < 256; byte++) {
          const bytes = placed(filler(length).map((value, k) => (k === position ? byte : value)), offset);
          expect(isPlainAscii(bytes)).toBe(isPlainByte(byte));
          expect(simdScan?.(bytes)).toBe(isPlainByte(byte));
        }
      }
    }
  });

  it("agrees with the word-wise scan on random long chunks", () => {
    const mostlyPlain = fc.oneof(
      { weight: 200, arbitrary: fc.constantFrom(0x09, 0x0a, 0x0d, 0x20, 0x41, 0x7e) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(mostlyPlain, { minLength: SIMD_MIN_BYTES, maxLength: 700 }), (bytes) => {
        const chunk = Uint8Array.from(bytes);
        expect(isPlainAscii(chunk)).toBe(isPlainAsciiByWords(chunk));
        expect(isPlainAscii(chunk)).toBe(everyBytePlain(chunk));
      }),
      { numRuns: 1000 },
    );
  });

  it("scans a chunk longer than its window, and a bad byte in the last window", () => {
    const line = Buffer.from("compiling module 0123456789\tok\r\n", "latin1");
    const long = Buffer.alloc(SIMD_WINDOW_BYTES * 2 + 100, line);
    expect(isPlainAscii(long)).toBe(true);
    long[long.length - 1] = 0x1b;
    expect(isPlainAscii(long)).toBe(false);
    long[long.length - 1] = 0x0a;
    long[SIMD_WINDOW_BYTES] = 0x7f;
    expect(isPlainAscii(long)).toBe(false);
  });

  it("leaves no trace of a previous chunk: a plain chunk after a bad longer one", () => {
    const bad = Buffer.alloc(SIMD_MIN_BYTES * 2, 0x41);
    bad[bad.length - 1] = 0x00;
    expect(isPlainAscii(bad)).toBe(false);
    expect(isPlainAscii(Buffer.alloc(SIMD_MIN_BYTES + 1, 0x41))).toBe(true);
  });
});
