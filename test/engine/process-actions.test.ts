// Pure parts of the process actions: log slicing, the poll back-off and the poll timeout parsing.
import { describe, expect, it } from "vitest";
import { sliceLog } from "../../src/engine/process/log-action.js";
import { parsePollTimeout, retryInMs } from "../../src/engine/process/poll-action.js";

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line-${i + 1}`).join("\n") + "\n";

describe("sliceLog", () => {
  it.each([
    ["one\ntwo\nthree\n", undefined, 2, "two\nthree", 3],
    ["alpha\nbeta\ngamma\n", 1, 1, "beta", 3],
    ["a\r\nb\r\n", undefined, undefined, "a\nb", 2],
    ["a\nb\n", 5, undefined, "", 2],
    ["a\nb\n", 0, 0, "", 2],
    ["a\nb\n", -3, 1.9, "a", 2],
    ["a\nb", undefined, undefined, "a\nb", 2],
    ["", undefined, undefined, "", 0],
    ["a\n\n", undefined, undefined, "a\n", 2],
  ])("slices %j with offset %s and limit %s (LOG-08, LOG-12)", (aggregate, offset, limit, text, total) => {
    const slice = sliceLog(aggregate, offset, limit);
    expect(slice.text).toBe(text);
    expect(slice.totalLines).toBe(total);
    expect(slice.hint).toBe("");
  });

  it("shows the last 200 of 201 lines with the paging hint when no window is given (LOG-04, LOG-12)", () => {
    const slice = sliceLog(lines(201), undefined, undefined);
    expect(slice.text.startsWith("line-2\n")).toBe(true);
    expect(slice.text.endsWith("line-201")).toBe(true);
    expect(slice.hint).toBe("\n\n[showing last 200 of 201 lines; pass offset/limit to page]");
  });

  it("returns everything from offset to the end, beyond 200 lines, without a hint (LOG-05)", () => {
    const slice = sliceLog(lines(500), 30, undefined);
    expect(slice.text.split("\n")).toHaveLength(470);
    expect(slice.hint).toBe("");
  });

  it("returns the last limit lines when only limit is given (LOG-06)", () => {
    expect(sliceLog(lines(300), undefined, 250).text.split("\n")[0]).toBe("line-51");
  });
});

describe("retryInMs", () => {
  it("backs off 5000, 10000, 30000, 60000, 60000 over consecutive empty polls and is 5000 after output (POLL-06)", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(retryInMs)).toEqual([5000, 5000, 10000, 30000, 60000, 60000, 60000]);
  });
});

describe("parsePollTimeout", () => {
  it.each([
    [undefined, 0], [0, 0], [1500.9, 1500], [-5, 0], [120000, 30000], ["2000", 2000], [" 2000 ", 2000],
    ["99999", 30000], ["2e3", 0], ["-1", 0], ["1.5", 0], [Number.NaN, 0], [Number.POSITIVE_INFINITY, 0], [true, 0],
  ])("reads %j as %i ms (POLL-08)", (value, expected) => {
    expect(parsePollTimeout(value)).toBe(expected);
  });
});
