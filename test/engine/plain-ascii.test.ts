import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlainAscii, isPlainByte } from "../../src/engine/plain-ascii.js";
import { everyBytePlain, placed } from "./helpers/plain-bytes.js";


describe("isPlainByte", () => {
  it.each([
    ["TAB", 0x09, true], ["LF", 0x0a, true], ["CR", 0x0d, true], ["space", 0x20, true], ["~", 0x7e, true],
    ["NUL", 0x00, false], ["ESC", 0x1b, false], ["unit separator", 0x1f, false], ["DEL", 0x7f, false],
    ["a C1 CSI byte", 0x9b, false], ["a UTF-8 lead byte", 0xe4, false], ["0xff", 0xff, false],
  ])("classifies %s", (_name, byte, plain) => {
    expect(isPlainByte(byte)).toBe(plain);
  });
});

describe("isPlainAscii", () => {
  it("agrees with the byte-wise definition for every byte value at every position and alignment", () => {
    const filler = Array.from({ length: 11 }, (_, k) => 0x61 + k);
    for (let offset = 0; offset < 4; offset++) {
      for (let position = 0; position < filler.length; position++) {
        for (let byte = 0; byte < 256; byte++) {
          const bytes = placed(filler.map((value, k) => (k === position ? byte : value)), offset);
          expect(isPlainAscii(bytes)).toBe(isPlainByte(byte));
        }
      }
    }
  });

  it("agrees with the byte-wise definition on random chunks", () => {
    const mostlyPlain = fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom(0x09, 0x0a, 0x0d, 0x20, 0x41, 0x7e) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(mostlyPlain, { maxLength: 80 }), fc.integer({ min: 0, max: 7 }), (bytes, offset) => {
        const chunk = placed(bytes, offset);
        expect(isPlainAscii(chunk)).toBe(everyBytePlain(chunk));
      }),
      { numRuns: 3000 },
    );
  });

  it("is true for an empty chunk and for a 64 KB chunk of build output", () => {
    expect(isPlainAscii(new Uint8Array(0))).toBe(true);
    const line = "compiling module 0123456789\tok\r\n";
    expect(isPlainAscii(Buffer.from(line.repeat(2048), "latin1"))).toBe(true);
  });
});
