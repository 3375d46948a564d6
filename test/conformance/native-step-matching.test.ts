// The kit's cheaper step matching (step-definitions/support/native-step-matching.ts) finds the same groups at the
// same positions as cucumber-expressions' own, which reach messages.ndjson as stepMatchArguments.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/** The copy of cucumber-expressions that @cucumber/cucumber uses, the one the kit's module changes. */
const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
const { CucumberExpression, ParameterTypeRegistry } = fromCucumber("@cucumber/cucumber-expressions") as typeof import("@cucumber/cucumber-expressions");
const treeRegexpMatch = (): unknown => {
  const { treeRegexp } = new CucumberExpression("a", new ParameterTypeRegistry()) as unknown as { treeRegexp: { match: unknown } };
  return (Object.getPrototypeOf(treeRegexp) as { match: unknown }).match;
};

const CASES: Array<[string, string]> = [
  ["the text is {string}", 'the text is "one\\ntwo\\n"'],
  ["the text is {string}", "the text is 'plain'"],
  ["session {word} has {int} lines", "session alpha has -12 lines"],
  ["a call of {string} with {string} waits {int} ms", 'a call of "exec" with "{\\"a\\": 1}" waits 250 ms'],
  ["wait {float} s or {}", "wait 1.5 s or anything at all"],
];

function groupsOf(expression: string, text: string): unknown {
  return new CucumberExpression(expression, new ParameterTypeRegistry()).match(text)?.map((argument) => argument.group);
}

describe("the kit's step matching", () => {
  it("finds the groups and positions cucumber-expressions finds", async () => {
    const before = CASES.map(([expression, text]) => groupsOf(expression, text));
    const packageMatch = treeRegexpMatch();
    await import("../../step-definitions/support/native-step-matching.js");
    expect(treeRegexpMatch()).not.toBe(packageMatch);
    const after = CASES.map(([expression, text]) => groupsOf(expression, text));
    expect(after).toEqual(before);
    expect(before.every((groups) => groups !== undefined)).toBe(true);
  });

  it("takes the engine's indices only where no capturing group repeats", async () => {
    const { nativeIndicesAgree } = await import("../../step-definitions/support/native-step-matching.js");
    expect(nativeIndicesAgree(String.raw`^a (-?\d+)$`)).toBe(true);
    expect(nativeIndicesAgree(String.raw`^(?<name>a)[(]b\(c(d)`)).toBe(true);
    expect(nativeIndicesAgree(String.raw`"([^"\\]*(\\.[^"\\]*)*)"`)).toBe(false);
    expect(nativeIndicesAgree("(a)?")).toBe(false);
    expect(nativeIndicesAgree("(?:x(y))*")).toBe(false);
    expect(nativeIndicesAgree("(?=(a))")).toBe(false);
  });
});
