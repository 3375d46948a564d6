// Pure parts of the process actions: log slicing, the poll back-off and the poll timeout parsing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sliceLog } from "../../src/engine/process/log-action.js";
import { parsePollTimeout, retryInMs } from "../../src/engine/process/poll-action.js";
import { LOG_DEFAULT_LINES } from "../../src/engine/settings.js";

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

// The split/slice/join definition of LOG-03 … LOG-08 that sliceLog's scan from the nearer end must match.
function splitSliceJoin(aggregate: string, offset: number | undefined, limit: number | undefined) {
  const all = aggregate.replace(/\r\n/g, "\n").split("\n");
  if (all[all.length - 1] === "") all.pop();
  const total = all.length;
  let selected: string[];
  if (offset === undefined && limit === undefined) selected = all.slice(Math.max(0, total - LOG_DEFAULT_LINES));
  else if (offset === undefined) selected = limit === 0 ? [] : all.slice(Math.max(0, total - (limit ?? 0)));
  else selected = limit === undefined ? all.slice(offset) : all.slice(offset, offset + limit);
  return { text: selected.join("\n"), totalLines: total };
}

describe("sliceLog against split/slice/join", () => {
  const line = fc.string({ unit: fc.constantFrom("a", "\r", "é", "😀", " "), maxLength: 4 });
  const aggregate = fc.tuple(
    fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "\r\r\n")), { maxLength: 260 }),
    line,
  ).map(([lines, last]) => lines.map(([text, end]) => text + end).join("") + last);
  const window = fc.oneof(fc.constant(undefined), fc.nat({ max: 280 }));

  it("gives the same text and line count for every offset and limit", () => {
    fc.assert(
      fc.property(aggregate, window, window, (text, offset, limit) => {
        const slice = sliceLog(text, offset, limit);
        expect({ text: slice.text, totalLines: slice.totalLines }).toEqual(splitSliceJoin(text, offset, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it("normalizes parameters as before: negative, fractional and non-numeric values", () => {
    const raw = fc.oneof(fc.constant(undefined), fc.double(), fc.integer({ min: -5, max: 20 }), fc.constant("3"), fc.constant(null));
    const normalized = (value: unknown): number | undefined =>
      typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : undefined;
    fc.assert(
      fc.property(aggregate, raw, raw, (text, offset, limit) => {
        const slice = sliceLog(text, offset, limit);
        expect(slice.text).toBe(splitSliceJoin(text, normalized(offset), normalized(limit)).text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("retryInMs", () => {
  it("backs off 5000, 10000, 30000, 60000, 60000 over the back-off steps, 5000 before the first (POLL-06)", () => {
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
