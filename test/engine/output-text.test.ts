// src/engine/output-text.ts: output held as text or as plain ASCII bytes (one character per byte); both kinds read
// the same through these functions.
import { describe, expect, it } from "vitest";
import { codeUnitAt, countLineBreaks, decodeText, joinTexts, sliceText } from "../../src/engine/output-text.js";

const ascii = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));
// A view into a larger buffer, so that byteOffset is not 0.
const offsetView = (text: string): Uint8Array => new Uint8Array(Buffer.from(`xx${text}`, "latin1")).subarray(2);

describe.each([
  ["a string", (text: string) => text],
  ["ASCII bytes", ascii],
  ["ASCII bytes at an offset", offsetView],
])("output text as %s", (_kind, make) => {
  it("reads code units like String.prototype.charCodeAt, NaN outside", () => {
    const text = make("a\tb\r\n");
    expect([0, 1, 3, 4].map((i) => codeUnitAt(text, i))).toEqual([0x61, 0x09, 0x0d, 0x0a]);
    expect(codeUnitAt(text, 5)).toBeNaN();
  });

  it("slices like String.prototype.slice, negative indexes from the end", () => {
    expect(decodeText(sliceText(make("hello world"), 6))).toBe("world");
    expect(decodeText(sliceText(make("hello world"), -5, -2))).toBe("wor");
  });

  it("counts LF characters only", () => {
    expect(countLineBreaks(make("a\nb\r\nc\r"))).toBe(2);
    expect(countLineBreaks(make(""))).toBe(0);
  });

  it("decodes to the same string", () => {
    expect(decodeText(make("plain ASCII\n"))).toBe("plain ASCII\n");
  });
});

describe("joinTexts", () => {
  it("joins strings and byte texts in order", () => {
    expect(joinTexts(["é ", ascii("and "), offsetView("bytes")])).toBe("é and bytes");
    expect(joinTexts([])).toBe("");
  });
});
