// Wrapping Markdown text for a terminal: compliance.md reads in a 100-column terminal (issue 23). Lines break at
// spaces only, never inside a code span or a link target, so a line is longer than the width only when a single
// code span or link is.

export const TERMINAL_COLUMNS = 100;

/** Columns a string takes in a terminal: wide (East Asian) characters and emoji take two, joiners and variation selectors none. */
export function displayWidth(text: string): number {
  // Below U+0300 every character takes one column: most lines are measured without a look at each character.
  if (NARROW_ONLY.test(text)) return text.length;
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0xfe0f || code === 0x200d || (code >= 0x300 && code <= 0x36f)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

const NARROW_ONLY = /^[\u0000-\u02ff]*$/;
const WIDE_SYMBOLS = new Set([0x23e9, 0x23ea, 0x23ed, 0x23ef, 0x23f8, 0x23f9, 0x274c, 0x2705, 0x2796, 0x26a0]);

function isWide(code: number): boolean {
  return (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3)
    || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60)
    || (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1faff)
    || WIDE_SYMBOLS.has(code);
}

/**
 * Splits text into the pieces a line may break between: code spans and `](target)` stay whole, and each joins
 * the word it touches.
 */
function atoms(text: string): string[] {
  const result: string[] = [];
  let current = "";
  for (const part of text.split(/(`[^`]*`|\]\([^)\s]*\)|\s+)/).filter((piece) => piece !== "")) {
    if (/^\s+$/.test(part)) {
      if (current) result.push(current);
      current = "";
    } else {
      current += part;
    }
  }
  if (current) result.push(current);
  return result;
}

/**
 * Wraps `text` to `width` columns. The first line starts with `firstPrefix` (e.g. `- `), the others with `prefix`
 * (e.g. two spaces, so that they continue the list item).
 */
export function wrapMarkdown(text: string, width = TERMINAL_COLUMNS, firstPrefix = "", prefix = ""): string[] {
  const lines: string[] = [];
  let line = firstPrefix;
  // Atoms split at spaces and backticks, never inside a character: a line's width is the sum of its parts'.
  let lineWidth = displayWidth(firstPrefix);
  let empty = true;
  for (const atom of atoms(text)) {
    const atomWidth = displayWidth(atom);
    if (!empty && lineWidth + 1 + atomWidth > width) {
      lines.push(line);
      line = `${prefix}${atom}`;
      lineWidth = displayWidth(prefix) + atomWidth;
    } else {
      line = empty ? `${line}${atom}` : `${line} ${atom}`;
      lineWidth += (empty ? 0 : 1) + atomWidth;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}
