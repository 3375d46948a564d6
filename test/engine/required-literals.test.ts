// src/engine/watch/required-literals.ts: the texts a regex watch's matching lines must hold, read conservatively.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { requiredLiterals } from "../../src/engine/watch/required-literals.js";

describe("requiredLiterals", () => {
  it.each<[string, string[] | undefined]>([
    ["ready", ["ready"]],
    ["^ready$", ["ready"]],
    ["ready|listening on \\d+", ["ready", "listening on "]],
    ["server (is )?ready", ["server "]],
    ["compil(ed|ing) \\d+ modules", [" modules"]],
    ["colou?r", ["colo"]],
    ["ab+c", undefined], // its longest run, "a", is too short to search for
    ["a\\.b\\.c", ["a.b.c"]],
    ["port [0-9]+ open", ["port "]],
    ["x{2}yz", ["yz"]],
    ["(?i)ready", undefined],
    ["ready|\\d+", undefined],
    ["\\x41BC", undefined],
    ["\\p{L}ready", undefined],
    ["(a", undefined],
  ])("%s → %j", (pattern, expected) => {
    expect(requiredLiterals(pattern)).toEqual(expected);
  });

  const patterns = [
    "ready", "^ready$", "ready|listening on \\d+", "server (is )?ready", "compil(ed|ing) \\d+ modules", "colou?r",
    "a\\.b\\.c", "port [0-9]+ open", "x{2}yz", "re+ady", "err(or)*: [a-z]+", "done\\b|finished in \\d+s",
  ];
  const pieces = ["ready", "rea", "dy", "listening on ", "42", "server ", "is ", "compiled", "compiling", " modules",
    "color", "colour", "a.b.c", "aXb", "port ", "9", " open", "xx", "yz", "ree", "ady", "error", "or", ": ", "abc",
    "done", "finished in ", "s", " ", "x", "\t"];

  it("every line a pattern matches holds one of its literals", () => {
    for (const pattern of patterns) {
      const literals = requiredLiterals(pattern);
      expect(literals, pattern).toBeDefined();
      const compiled = RE2JS.compile(pattern);
      fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (parts) => {
        const line = parts.join("");
        return !compiled.test(line) || literals!.some((literal) => line.includes(literal));
      }), { numRuns: 2_000 });
    }
  });
});
