// What a watch looks for in a line (issue 34): a literal substring, or a regular expression run by RE2JS, whose
// matching time is linear in the line's length, so that no pattern a model sends can stall the engine.
import { RE2JS } from "re2js";
import { ExecProcessError } from "../errors.js";

export interface LinePattern {
  /** The literal text, or undefined for a regular expression. */
  readonly literal: string | undefined;
  test(line: string): boolean;
}

/** A literal pattern, or a compiled regular expression; a regex that does not compile is an invalid-watch-pattern error. */
export function compileLinePattern(pattern: string, regex: boolean): LinePattern {
  if (!regex) return { literal: pattern, test: (line) => line.includes(pattern) };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new ExecProcessError({ code: "invalid-watch-pattern", param: "pattern", pattern, reason: syntaxReason(error) }, { cause: error });
  }
  return { literal: undefined, test: (line) => compiled.test(line) };
}

/** The regex engine's account without the pattern it repeats: `missing closing )`. */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp: /, "").replace(/: `[\s\S]*`$/, "").split("\n")[0] ?? "invalid syntax";
}
