// Sanitized output as the output buffer holds it: decoded text, or plain ASCII bytes that are their own text.
// Most of a flood is dropped at the caps before anybody reads it, so plain byte chunks are decoded only when read.

/**
 * A string, or bytes that are all printable ASCII, TAB, LF or CR (one character per byte). Both kinds have
 * `length` in UTF-16 code units.
 */
export type OutputText = string | Uint8Array;

const LF = 0x0a;

/** The code unit at `index`, NaN outside the text (as String.prototype.charCodeAt). */
export function codeUnitAt(text: OutputText, index: number): number {
  return typeof text === "string" ? text.charCodeAt(index) : (text[index] ?? Number.NaN);
}

/** The part from `start` to `end`, as String.prototype.slice (negative indexes count from the end). */
export function sliceText(text: OutputText, start: number, end?: number): OutputText {
  return typeof text === "string" ? text.slice(start, end) : text.subarray(start, end);
}

/** The text itself: ASCII bytes decode one character per byte. */
export function decodeText(text: OutputText): string {
  if (typeof text === "string") return text;
  return Buffer.from(text.buffer, text.byteOffset, text.length).toString("latin1");
}

export function joinTexts(texts: readonly OutputText[]): string {
  return texts.map(decodeText).join("");
}

/** How many LF characters the text holds. */
export function countLineBreaks(text: OutputText): number {
  let count = 0;
  if (typeof text === "string") {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  } else {
    for (let at = text.indexOf(LF); at >= 0; at = text.indexOf(LF, at + 1)) count++;
  }
  return count;
}
