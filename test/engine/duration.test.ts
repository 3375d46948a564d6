import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCompactDuration } from "../../src/engine/duration.js";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("formatCompactDuration (LIST-04, WAIT-05)", () => {
  it.each<[number, string]>([
    [327, "327ms"],
    [1, "1ms"],
    [0.4, "0ms"],
    [999.4, "999ms"],
    [999.6, "1000ms"],
    [1_000, "1s"],
    [1_499, "1s"],
    [1_502, "2s"],
    [20_000, "20s"],
    [59_499, "59s"],
    [59_500, "1m"],
    [60_000, "1m"],
    [65_000, "1m5s"],
    [3_599_499, "59m59s"],
    [3_599_500, "1h"],
    [HOUR + MINUTE, "1h1m"],
    [HOUR + 30 * SECOND, "1h"],
    [2 * HOUR + 59 * MINUTE + 59 * SECOND, "2h59m"],
    [DAY - 1, "1d"],
    [DAY, "1d"],
    [DAY + HOUR, "1d1h"],
    [3 * DAY + 23 * HOUR + 59 * MINUTE, "3d23h"],
    [400 * DAY, "400d"],
  ])("formats %d ms as %j", (ms, expected) => {
    expect(formatCompactDuration(ms)).toBe(expected);
  });

  it.each([0, -1, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("formats %d as n/a", (ms) => {
    expect(formatCompactDuration(ms)).toBe("n/a");
  });

  it("always matches the <dur> pattern of §0.5", () => {
    const pattern = /^(n\/a|[0-9]+ms|[0-9]+(s|m|h|d)([0-9]+(s|m|h))?)$/;
    fc.assert(fc.property(fc.double({ min: -1e3, max: 1e12 }), (ms) => pattern.test(formatCompactDuration(ms))));
  });
});
