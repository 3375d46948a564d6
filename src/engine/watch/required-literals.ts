// A regex watch's prefilter (issue 34): texts of which every match holds at least one, read from the pattern's
// syntax, so that a flood is searched for them as bytes (as for a literal watch) and only lines that hold one run
// through the regex engine. Conservative: any construct it does not read with certainty gives no prefilter.

/** The shortest literal worth searching for: shorter ones would let most lines through. */
const MIN_LITERAL_CHARS = 2;
const QUANTIFIERS = new Set(["*", "+", "?", "{"]);
/** Escapes of punctuation that stand for the character itself (`\.` is a dot). */
const LITERAL_ESCAPE = /^[^0-9A-Za-z]$/;
/** Escapes of one letter with no operand: classes (`\d`), assertions (`\b`) and control characters (`\n`). */
const SIMPLE_ESCAPES = new Set([..."dDwWsSbBAznrtfva"]);

/**
 * Literals such that every line the pattern matches contains at least one of them (one per top-level alternative),
 * or undefined when the pattern cannot be read that way: flags or special groups (`(?`), an alternative with no
 * literal of at least MIN_LITERAL_CHARS characters outside groups, classes and quantifiers.
 */
export function requiredLiterals(pattern: string): string[] | undefined {
  if (pattern.includes("(?")) return undefined; // flags (case-insensitive) and named groups change what a literal is
  const branches = splitAlternatives(pattern);
  if (!branches) return undefined;
  const literals: string[] = [];
  for (const branch of branches) {
    const literal = longestLiteral(branch);
    if (literal === undefined || literal.length < MIN_LITERAL_CHARS) return undefined;
    literals.push(literal);
  }
  return literals;
}

/** The top-level alternatives of `a|b(c|d)`: `a`, `b(c|d)`; undefined for unbalanced brackets. */
function splitAlternatives(pattern: string): string[] | undefined {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === "\\") {
      at++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    if (char === "[") {
      inClass = true;
      if (pattern[at + 1] === "]") at++; // `[]a]`: a leading ] is a member
    } else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "|" && depth === 0) {
      branches.push(pattern.slice(start, at));
      start = at + 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0 || inClass) return undefined;
  branches.push(pattern.slice(start));
  return branches;
}

/** The longest run of plain characters of one alternative that every match of it contains; undefined if unreadable. */
function longestLiteral(branch: string): string | undefined {
  let longest = "";
  let run = "";
  const endRun = () => {
    if (run.length > longest.length) longest = run;
    run = "";
  };
  for (let at = 0; at < branch.length; at++) {
    const char = branch[at]!;
    if (QUANTIFIERS.has(char)) {
      // the quantified character may be absent (or repeated): it ends the run, without it
      run = run.slice(0, -1);
      endRun();
      if (char === "{") {
        const close = branch.indexOf("}", at);
        if (close < 0) return undefined;
        at = close;
      }
      if (branch[at + 1] === "?") at++; // lazy
      continue;
    }
    if (char === "\\") {
      const next = branch[at + 1];
      if (next === undefined) return undefined;
      at++;
      if (LITERAL_ESCAPE.test(next)) run += next;
      else if (SIMPLE_ESCAPES.has(next)) endRun(); // a class, an assertion or a control character
      else return undefined; // \x41, \p{L}, \Q…\E, \1: escapes with operands are not read
      continue;
    }
    if (char === "(" || char === "[") {
      endRun();
      const close = char === "(" ? closingParen(branch, at) : closingBracket(branch, at);
      if (close < 0) return undefined;
      at = close;
      continue;
    }
    if (".^$|)]".includes(char)) {
      endRun();
      continue;
    }
    run += char;
  }
  endRun();
  return longest;
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (char === "\\") {
      at++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
      if (text[at + 1] === "]") at++;
    } else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return at;
  }
  return -1;
}

function closingBracket(text: string, open: number): number {
  let at = open + 1;
  if (text[at] === "^") at++;
  if (text[at] === "]") at++;
  for (; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === "]") return at;
  }
  return -1;
}
