// Line windows of the retained output for `process log` (LOG-04 … LOG-08), found by scanning for LF from the
// nearer end of the text, so a window near the end costs its own length, not the aggregate's.
//
// The lines are those of `text.replace(/\r\n/g, "\n").split("\n")` with one trailing empty line dropped: line i
// is the text between LF i-1 and LF i, less one CR just before LF i.

/** Lines of a text that holds `lineBreaks` LF characters (LOG-08). */
export function countLines(text: string, lineBreaks: number): number {
  return text.length === 0 || text.endsWith("\n") ? lineBreaks : lineBreaks + 1;
}

// Index of LF number `k` (from 0) of a text that holds `lineBreaks` of them; scans from the nearer end.
function lineBreakIndex(text: string, k: number, lineBreaks: number): number {
  let at: number;
  if (k < lineBreaks / 2) {
    at = -1;
    for (let i = 0; i <= k; i++) at = text.indexOf("\n", at + 1);
  } else {
    at = text.length;
    for (let i = lineBreaks - 1; i >= k; i--) at = text.lastIndexOf("\n", at - 1);
  }
  return at;
}

/** Lines `from` (inclusive) to `to` (exclusive), joined by LF; 0 <= from, to <= the line count. */
export function readLines(text: string, from: number, to: number, lineBreaks: number): string {
  if (from >= to) return "";
  const start = from === 0 ? 0 : lineBreakIndex(text, from - 1, lineBreaks) + 1;
  // The window takes the last line's own LF, so a CR before it is removed with the others, then drops it.
  const endsAtBreak = to - 1 < lineBreaks;
  const end = endsAtBreak ? lineBreakIndex(text, to - 1, lineBreaks) + 1 : text.length;
  const window = text.slice(start, end).replace(/\r\n/g, "\n");
  return endsAtBreak ? window.slice(0, -1) : window;
}
