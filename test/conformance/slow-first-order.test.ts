// The kit's scenario order: @slow scenarios first, everything else after them in its given order, none lost.
import type { IFilterablePickle } from "@cucumber/cucumber/api";
import { describe, expect, it } from "vitest";
import plugin, { slowFirst } from "../../conformance/slow-first-order.mjs";

function pickle(name: string, ...tags: string[]): IFilterablePickle {
  return {
    pickle: { id: name, name, tags: tags.map((tag) => ({ name: tag, astNodeId: "" })) },
    gherkinDocument: {}, location: { line: 1, column: 1 },
  } as unknown as IFilterablePickle;
}

const names = (pickles: readonly IFilterablePickle[]): string[] => pickles.map(({ pickle: p }) => p.name);

describe("slowFirst", () => {
  it("moves the @slow scenarios to the front and keeps the order within each group", () => {
    const given = [pickle("a", "@doc"), pickle("b", "@slow"), pickle("c"), pickle("d", "@doc", "@slow"), pickle("e")];
    expect(names(slowFirst(given))).toEqual(["b", "d", "a", "c", "e"]);
  });

  it("leaves the given array as it was", () => {
    const given = [pickle("a"), pickle("b", "@slow")];
    slowFirst(given);
    expect(names(given)).toEqual(["a", "b"]);
  });

  it("is registered as cucumber's pickles:order transform", async () => {
    const transforms: Array<[string, (pickles: IFilterablePickle[]) => unknown]> = [];
    await plugin.coordinator({ transform: (key: string, fn: never) => transforms.push([key, fn]) } as never);
    expect(transforms.map(([key]) => key)).toEqual(["pickles:order"]);
    expect(names(transforms[0]![1]([pickle("a"), pickle("b", "@slow")]) as IFilterablePickle[])).toEqual(["b", "a"]);
  });
});
