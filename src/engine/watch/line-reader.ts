// One stream's sanitized output as lines, for watches (issue 34): LF, CR and CRLF end a line, and a line that
// arrives in pieces (one byte per read) is joined before it is matched.
import { WATCH_LINE_MAX_CHARS } from "../settings.js";

const LF = 10;
const CR = 13;

export class LineReader {
  /** The line in progress: at most WATCH_LINE_MAX_CHARS characters; the rest of a longer line is not kept. */
  #partial = "";
  /** The last piece ended with CR: an LF at the start of the next one ends no second line. */
  #afterCR = false;
  /** The line in progress may hold a match that `mayMatch` saw: it is matched when it ends. */
  #partialMayMatch = false;

  /**
   * Calls `onLine` for each line the piece ends. `mayMatch(text)` is asked first with the piece and the line in
   * progress: when it says no line can match, the piece is only scanned for its last line break.
   */
  push(piece: string, onLine: (line: string) => void, mayMatch?: (partial: string, piece: string) => boolean): void {
    let start = 0;
    if (this.#afterCR && piece.charCodeAt(0) === LF) start = 1;
    this.#afterCR = piece.length > 0 && piece.charCodeAt(piece.length - 1) === CR;
    if (mayMatch && !this.#partialMayMatch && !mayMatch(this.#partial, piece)) {
      this.#skipTo(piece, start);
      return;
    }
    let lf = piece.indexOf("\n", start);
    let cr = piece.indexOf("\r", start);
    while (lf >= 0 || cr >= 0) {
      let at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      this.#keep(piece, start, at);
      onLine(this.#partial);
      this.#partial = "";
      if (at === cr && lf === at + 1) at++; // CRLF
      start = at + 1;
      if (lf >= 0 && lf < start) lf = piece.indexOf("\n", start);
      if (cr >= 0 && cr < start) cr = piece.indexOf("\r", start);
    }
    this.#keep(piece, start, piece.length);
    // A match inside the kept part is seen now; one that spans into the next piece, by the next mayMatch.
    this.#partialMayMatch = mayMatch !== undefined && this.#partial !== "" && mayMatch("", this.#partial);
  }

  /**
   * A piece the caller knows no line of can match (the literal fast path on plain ASCII bytes): only what follows
   * its last line break is kept, decoded, and the lines it ends are not given out.
   */
  skip(piece: string | Uint8Array): void {
    if (typeof piece === "string") {
      this.push(piece, () => undefined, () => false);
      return;
    }
    const start = this.#afterCR && piece[0] === LF ? 1 : 0;
    this.#afterCR = piece.length > 0 && piece[piece.length - 1] === CR;
    const lastBreak = Math.max(piece.lastIndexOf(LF), piece.lastIndexOf(CR));
    if (lastBreak >= start) this.#partial = "";
    const from = Math.max(start, lastBreak + 1);
    const room = WATCH_LINE_MAX_CHARS - this.#partial.length;
    if (room > 0 && from < piece.length) this.#partial += latin1(piece.subarray(from, Math.min(piece.length, from + room)));
  }

  /** The line in progress may hold a match seen earlier: it must be given out when it ends. */
  get partialMayMatch(): boolean {
    return this.#partialMayMatch;
  }

  /** The last `chars` characters of the line in progress. */
  partialTail(chars: number): string {
    return chars > 0 ? this.#partial.slice(-chars) : "";
  }

  /** The line still in progress (at the session's end), then nothing. */
  flush(onLine: (line: string) => void): void {
    const line = this.#partial;
    this.#partial = "";
    this.#partialMayMatch = false;
    if (line !== "") onLine(line);
  }

  /** No line of the piece can match: keep only what follows its last line break (or add all of it). */
  #skipTo(piece: string, start: number): void {
    const lastBreak = Math.max(piece.lastIndexOf("\n"), piece.lastIndexOf("\r"));
    if (lastBreak < start) {
      this.#keep(piece, start, piece.length);
      return;
    }
    this.#partial = "";
    this.#keep(piece, lastBreak + 1, piece.length);
  }

  #keep(piece: string, from: number, to: number): void {
    const room = WATCH_LINE_MAX_CHARS - this.#partial.length;
    if (room <= 0 || from >= to) return;
    this.#partial += piece.slice(from, Math.min(to, from + room));
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}
