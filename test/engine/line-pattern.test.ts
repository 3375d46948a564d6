// What a watch looks for in a line (line-pattern.ts, issue 34): a literal substring, or an RE2JS regular expression
// with the literals every match must hold as its prefilter; a regex that does not compile is a data error.
import { describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/index.js";
import { compileLinePattern } from "../../src/engine/watch/line-pattern.js";

describe("compileLinePattern", () => {
  it("matches a literal as a substring, never as a regular expression", () => {
    const pattern = compileLinePattern("a.b", false);
    expect(pattern.literal).toBe("a.b");
    expect(pattern.anyOf).toEqual(["a.b"]);
    expect(pattern.test("x a.b y")).toBe(true);
    expect(pattern.test("axb")).toBe(false);
  });

  it("matches a regular expression, and prefilters by the literals a match must hold", () => {
    const pattern = compileLinePattern("listening on (port )?\\d+", true);
    expect(pattern.literal).toBeUndefined();
    expect(pattern.anyOf).toEqual(["listening on "]);
    expect(pattern.test("server listening on port 8080")).toBe(true);
    expect(pattern.test("listening on nothing")).toBe(false);
  });

  it("takes a regular expression with no required literal and still matches it", () => {
    const pattern = compileLinePattern("\\d{4}-\\d{2}", true);
    expect(pattern.anyOf).toBeUndefined();
    expect(pattern.test("on 2026-12 it")).toBe(true);
  });

  it("refuses a regex that does not compile with the engine's reason, without repeating the pattern in it", () => {
    let caught: unknown;
    try {
      compileLinePattern("(ready", true);
    } catch (error) {
      caught = error;
    }
    expect(ExecProcessError.is(caught, "invalid-watch-pattern")).toBe(true);
    const error = caught as ExecProcessError<"invalid-watch-pattern">;
    expect(error.data).toMatchObject({ param: "pattern", pattern: "(ready" });
    expect(error.data.reason).not.toContain("(ready");
    expect(error.message).toMatch(/^Invalid watch pattern .*\(ready.*: missing closing \)\. Fix the regular expression/);
  });

  it("refuses backreferences, which RE2 does not have (linear time)", () => {
    expect(() => compileLinePattern("(a)\\1", true)).toThrow(/Invalid watch pattern/);
  });
});
