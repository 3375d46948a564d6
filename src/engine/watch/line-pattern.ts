// What a watch looks for in a line (issue 34): a literal substring, or a regular expression run by RE2JS, whose
// matching time is linear in the line's length, so that no pattern a model sends can stall the engine.
import { RE2JS } from "re2js";
import { ExecProcessError } from "../errors.js";
import { requiredLiterals } from "./required-literals.js";

export interface LinePattern {
  /** The literal text, or undefined for a regular expression. */
  readonly literal: string | undefined;
  /**
   * Texts of which every matching line holds one: the literal itself, or a regex's required literals (its prefilter,
   * required-literals.ts); undefined when a regex has none that can be read.
   */
  readonly anyOf: readonly string[] | undefined;
  test(line: string): boolean;
}

/** A literal pattern, or a compiled regular expression; a regex that does not compile is an invalid-watch-pattern error. */
export function compileLinePattern(pattern: string, regex: boolean): LinePattern {
  if (!regex) return { literal: pattern, anyOf: [pattern], test: (line) => line.includes(pattern) };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new ExecProcessError({ code: "invalid-watch-pattern", param: "pattern", pattern, reason: syntaxReason(error) }, { cause: error });
  }
  const anyOf = requiredLiterals(pattern);
  if (!anyOf) return { literal: undefined, anyOf, test: (line) => compiled.test(line) };
  return { literal: undefined, anyOf, test: (line) => anyOf.some((text) => line.includes(text)) && compiled.test(line) };
}

/** The regex engine's account without the pattern it repeats: `missing closing )`. */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp: /, "").replace(/: `[\s\S]*`$/, "").split("\n")[0] ?? "invalid syntax";
}
