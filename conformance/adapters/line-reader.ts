// Splits a byte stream into `\n`-terminated lines in linear time: each chunk is searched once for newlines and the
// pieces of an unfinished line are kept as a list, joined once when its newline arrives (issue 20: appending every
// chunk to one string and splitting it again took 23 s and 0.9 GB for a 50 MB line). A line over the limit is not
// buffered at all: only its first bytes are kept, for the caller's answer.

/** How many bytes of an over-long line are kept, enough for the `{"id": <n>, …` a request starts with. */
export const OVERLONG_HEAD_BYTES = 1024;

export interface LineReaderOptions {
  /** Longest line in bytes, without its `\n`; a longer one goes to `onOverlong`. @default Infinity */
  maxLineBytes?: number;
  /** A line, decoded as UTF-8 and without its `\n`; `terminated` is false for a last line that ended with the input. */
  onLine: (line: string, terminated: boolean) => void;
  /** A line over `maxLineBytes`: its first OVERLONG_HEAD_BYTES bytes (decoded) and its whole length in bytes. */
  onOverlong?: (head: string, bytes: number, terminated: boolean) => void;
}

export class LineReader {
  readonly #maxLineBytes: number;
  readonly #options: LineReaderOptions;
  /** Pieces of the line being read, each a view of the chunk it arrived in. */
  #pieces: Buffer[] = [];
  /** Bytes of the line being read so far, kept or not. */
  #bytes = 0;
  /** The line being read is over the limit: its pieces after the head are dropped as they arrive. */
  #overlong = false;

  constructor(options: LineReaderOptions) {
    this.#options = options;
    this.#maxLineBytes = options.maxLineBytes ?? Infinity;
  }

  /** Reads the next chunk: every line it completes is reported at once, in order. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
      this.#append(bytes.subarray(start, newline));
      this.#finishLine(true);
      start = newline + 1;
    }
    if (start < bytes.length) this.#append(bytes.subarray(start));
  }

  /** The input ended: a last line without its `\n` is reported as unterminated. */
  end(): void {
    if (this.#bytes > 0) this.#finishLine(false);
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#bytes += piece.length;
    if (this.#overlong) return;
    this.#pieces.push(piece);
    if (this.#bytes <= this.#maxLineBytes) return;
    this.#overlong = true;
    this.#pieces = [Buffer.concat(this.#pieces).subarray(0, OVERLONG_HEAD_BYTES)];
  }

  #finishLine(terminated: boolean): void {
    const text = Buffer.concat(this.#pieces).toString("utf8");
    const { bytes, overlong } = { bytes: this.#bytes, overlong: this.#overlong };
    this.#pieces = [];
    this.#bytes = 0;
    this.#overlong = false;
    if (!overlong) this.#options.onLine(text, terminated);
    else this.#options.onOverlong?.(text, bytes, terminated);
  }
}
