// The kit's default worker count (issue 25: the README's first command runs in minutes, not a quarter of an hour).
import { describe, expect, it } from "vitest";
import { defaultParallel } from "../../conformance/cli.js";

describe("defaultParallel", () => {
  it("gives four workers per core, at most eight", () => {
    expect([1, 2, 3, 16].map((cores) => defaultParallel(cores))).toEqual([4, 8, 8, 8]);
  });
});
