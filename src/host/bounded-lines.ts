// Newline-delimited JSON-RPC input (the MCP server's stdio, the session host's socket) cut into lines of at most a
// limit (issue 32, attack 9). The MCP SDK's stdio transport buffers a line until its newline and closes the session
// once the buffer passes 10 MiB: a 10 MB line ended the server without a word. Here a line is held only up to the
// limit; past it, its bytes are dropped up to the next newline, and the line is reported with the id read from its
// first bytes, so that the server can refuse it and go on.
import { Transform, type TransformCallback } from "node:stream";

/** How much of an oversized line's start is kept to read its id from. */
export const OVERSIZED_ID_SCAN_BYTES = 4096;

/** A JSON-RPC request id as the message carries it. */
export type MessageId = string | number;

const NEWLINE = 0x0a;

/** Passes on whole lines (each with its newline) of at most `maxBytes` before the newline; reports longer ones. */
export class BoundedLines extends Transform {
  #maxBytes: number;
  readonly #onOversized: (id: MessageId | null) => void;
  /** The current line's parts while it is within the limit. */
  #parts: Buffer[] = [];
  #size = 0;
  /** The first bytes of the current line once it is over the limit; the rest is dropped. */
  #oversizedHead: Buffer | undefined;

  constructor(maxBytes: number, onOversized: (id: MessageId | null) => void) {
    super();
    this.#maxBytes = maxBytes;
    this.#onOversized = onOversized;
  }

  /** Changes the limit for the lines that follow (a session host raises it once a client has authenticated). */
  setLimit(maxBytes: number): void {
    this.#maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let start = 0; ;) {
      const newline = chunk.indexOf(NEWLINE, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      this.#endLine();
      start = newline + 1;
    }
    done();
  }

  /** An oversized line without a newline at the end of input is refused too; a short one is dropped, as the SDK does. */
  override _flush(done: TransformCallback): void {
    if (this.#oversizedHead) this.#endLine();
    done();
  }

  #take(part: Buffer): void {
    if (part.length === 0 || this.#oversizedHead) return;
    if (this.#size + part.length <= this.#maxBytes) {
      this.#parts.push(part);
      this.#size += part.length;
      return;
    }
    this.#oversizedHead = Buffer.concat([...this.#parts, part], Math.min(OVERSIZED_ID_SCAN_BYTES, this.#size + part.length));
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const head = this.#oversizedHead;
    if (head) {
      this.#oversizedHead = undefined;
      this.#onOversized(peekMessageId(head.toString("utf8")));
      return;
    }
    this.push(Buffer.concat([...this.#parts, Buffer.of(NEWLINE)]));
    this.#parts = [];
    this.#size = 0;
  }
}

/**
 * The id of a JSON-RPC message from its first characters: the value of a top-level "id" key, when it is a number or
 * a string that ends within them; null otherwise (JSON-RPC 2.0 answers a request whose id cannot be read with null).
 */
export function peekMessageId(head: string): MessageId | null {
  let depth = 0;
  for (let index = 0; index < head.length; index += 1) {
    const char = head[index];
    if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") depth -= 1;
    else if (char === '"') {
      const end = stringEnd(head, index);
      if (end === -1) return null;
      if (depth === 1 && head.slice(index, end + 1) === '"id"') {
        const value = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(head.slice(end + 1));
        if (value) return JSON.parse(value[1]!) as MessageId;
      }
      index = end;
    }
  }
  return null;
}

/** The index of the quote that closes the string opened at `start`; -1 when it does not close in `text`. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === "\\") index += 1;
    else if (text[index] === '"') return index;
  }
  return -1;
}
