// shape-keeper.ts keeps one idle object of each per-session shape alive, so that V8 keeps their hidden classes and
// the output path's optimized code between sessions (issue 36 item 4; the effect is measured in bench/, not here).
import { describe, expect, it } from "vitest";
import { keepShape } from "../../src/engine/shape-keeper.js";

describe("keepShape", () => {
  it("returns the very object it keeps", () => {
    const example = { field: 1 };
    expect(keepShape(example)).toBe(example);
  });
});
