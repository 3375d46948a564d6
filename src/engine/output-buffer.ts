// Per-session output store: the capped aggregate (OUT-08, OUT-09), its tail (OUT-13) and the
// per-stream pending output that poll drains (OUT-10, OUT-11).
import { OUTPUT_PIECE_CHARS, TAIL_CHARS } from "./settings.js";
import { codeUnitAt, countLineBreaks, decodeText, joinTexts, sliceText, type OutputText } from "./output-text.js";
import { ByteSlabs } from "./output-slabs.js";
import { keepShape } from "./shape-keeper.js";

export type OutputStream = "stdout" | "stderr";

/** What readers of a session's output see: its texts and flags, nothing that appends, drains or freezes. */
export interface OutputView {
  readonly aggregate: string;
  readonly tail: string;
  readonly lineBreaks: number;
  readonly length: number;
  readonly truncated: boolean;
  readonly discarded: boolean;
  readonly hasPending: boolean;
  readonly pendingOutputDropped: boolean;
}

/** A read-only view of `buffer` that no cast can turn back into the buffer. */
export function viewOf(buffer: OutputBuffer): OutputView {
  return new ReadOnlyOutput(buffer);
}

// A class rather than a frozen literal of getters: every session builds one, and the literal cost a few µs of each exec.
class ReadOnlyOutput implements OutputView {
  readonly #buffer: OutputBuffer;

  constructor(buffer: OutputBuffer) {
    this.#buffer = buffer;
    Object.freeze(this);
  }

  get aggregate(): string { return this.#buffer.aggregate; }
  get tail(): string { return this.#buffer.tail; }
  get lineBreaks(): number { return this.#buffer.lineBreaks; }
  get length(): number { return this.#buffer.length; }
  get truncated(): boolean { return this.#buffer.truncated; }
  get discarded(): boolean { return this.#buffer.discarded; }
  get hasPending(): boolean { return this.#buffer.hasPending; }
  get pendingOutputDropped(): boolean { return this.#buffer.pendingOutputDropped; }
}

export interface OutputBufferOptions {
  /** Characters retained in the aggregate (SET-10). */
  aggregateCap: number;
  /** Pending characters retained per stream (SET-11). */
  pendingCap: number;
}

// Texts in arrival order; entries before `head` are dropped, `chars` counts the retained ones.
interface TextQueue {
  items: OutputText[];
  head: number;
  chars: number;
}

// Aggregate pieces with the LF count of each, -1 until counted: a piece is counted once, when a log asks for it.
interface AggregateQueue extends TextQueue {
  lineBreaks: number[];
}

// A stream's pending chunks; `seqs[k]` is the arrival number of `items[k]` across both streams.
interface PendingQueue extends TextQueue {
  seqs: number[];
}

// Dropped entries at the front of an array are compacted away once they dominate it.
const COMPACT_MIN_DEAD_ENTRIES = 1024;
// Byte pieces shorter than this are kept as strings: they are cheap to copy and most are merged with their neighbours.
const MIN_SLAB_PIECE_BYTES = 1024;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

// A programmer error, not an ExecProcessError: the engine passes resolved settings, so no tool call can reach it.
function validateCap(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer (got ${String(value)}, ${typeof value})`);
  }
  return value;
}

// A dropped or replaced queue entry gives up its hold on its slab, if it is bytes.
function releaseText(slabs: ByteSlabs, text: OutputText): void {
  if (typeof text !== "string") slabs.release(text);
}

// End index of the next piece starting at `start`, never splitting a surrogate pair (OUT-07).
function findPieceEnd(text: OutputText, start: number): number {
  const end = Math.min(start + OUTPUT_PIECE_CHARS, text.length);
  const splitsPair =
    end < text.length && end - 1 > start &&
    isHighSurrogate(codeUnitAt(text, end - 1)) && isLowSurrogate(codeUnitAt(text, end));
  return splitsPair ? end - 1 : end;
}

/**
 * Keeps the last `cap` characters of a list of texts, starting at `list.head`: whole entries
 * are dropped first, then the oldest remaining one is front-trimmed. A low surrogate whose high half
 * was cut off is dropped too (OUT-09). Dropped entries are released. Returns the number of characters removed.
 */
function trimFront(list: TextQueue, cap: number, slabs: ByteSlabs): number {
  let removed = 0;
  let lastRemovedCode = -1;
  while (list.chars > cap) {
    const first = list.items[list.head] ?? "";
    const excess = list.chars - cap;
    if (first.length <= excess) {
      lastRemovedCode = codeUnitAt(first, first.length - 1);
      releaseText(slabs, first);
      list.head++;
      list.chars -= first.length;
      removed += first.length;
    } else {
      lastRemovedCode = codeUnitAt(first, excess - 1);
      list.items[list.head] = sliceText(first, excess);
      list.chars -= excess;
      removed += excess;
    }
  }
  const first = list.items[list.head];
  if (removed > 0 && first !== undefined && isHighSurrogate(lastRemovedCode) && isLowSurrogate(codeUnitAt(first, 0))) {
    if (first.length === 1) {
      releaseText(slabs, first);
      list.head++;
    } else list.items[list.head] = sliceText(first, 1);
    list.chars -= 1;
    removed += 1;
  }
  return removed;
}

// Removes dropped entries from the arrays of a list once they dominate it.
function compactFront(list: TextQueue, parallel?: number[]): void {
  if (list.head < COMPACT_MIN_DEAD_ENTRIES || list.head * 2 < list.items.length) return;
  list.items.splice(0, list.head);
  parallel?.splice(0, list.head);
  list.head = 0;
}

export class OutputBuffer {
  readonly aggregateCap: number;
  readonly pendingCap: number;
  // Aggregate pieces; `head` is the first retained one and `chars` the aggregate length.
  readonly #pieces: AggregateQueue = { items: [], lineBreaks: [], head: 0, chars: 0 };
  #aggregateCache: string | undefined = "";
  #tailCache: string | undefined = "";
  #totalOutputChars = 0;
  #truncated = false;
  #frozen = false;
  #pendingDropped = false;
  #nextSeq = 0;
  readonly #pending: Record<OutputStream, PendingQueue> = {
    stdout: { items: [], seqs: [], head: 0, chars: 0 },
    stderr: { items: [], seqs: [], head: 0, chars: 0 },
  };
  // Every byte item of the queues is a view held in these slabs, once per queue that holds it.
  readonly #slabs = new ByteSlabs();

  constructor(options: OutputBufferOptions) {
    this.aggregateCap = validateCap("aggregateCap", options.aggregateCap);
    this.pendingCap = validateCap("pendingCap", options.pendingCap);
  }

  /**
   * Appends sanitized text of one stream; ignored after freeze() (REG-03). ASCII bytes stay undecoded until read.
   * The bytes are copied: the caller may reuse them once this returns.
   */
  append(stream: OutputStream, text: OutputText): void {
    if (this.#frozen || text.length === 0) return;
    this.#aggregateCache = undefined;
    this.#tailCache = undefined;
    for (let start = 0; start < text.length; ) {
      const end = findPieceEnd(text, start);
      this.#appendPiece(stream, start === 0 && end === text.length ? text : sliceText(text, start, end));
      start = end;
    }
  }

  #appendPiece(stream: OutputStream, lent: OutputText): void {
    this.#totalOutputChars += lent.length;
    const pieces = this.#pieces;
    const last = pieces.items.length - 1;
    const lastPiece = last >= pieces.head ? pieces.items[last] : undefined;
    let piece: OutputText;
    // Small appends are merged so that a flood of tiny chunks does not grow the piece list.
    if (lastPiece !== undefined && lastPiece.length + lent.length <= OUTPUT_PIECE_CHARS) {
      piece = decodeText(lent);
      pieces.items[last] = decodeText(lastPiece) + piece;
      pieces.lineBreaks[last] = -1;
      releaseText(this.#slabs, lastPiece);
    } else {
      piece = this.#keep(lent);
      pieces.items.push(piece);
      pieces.lineBreaks.push(-1);
    }
    pieces.chars += piece.length;
    // Pending takes its hold first: the aggregate's trim may drop the piece at once.
    this.#appendPending(stream, piece);
    if (trimFront(pieces, this.aggregateCap, this.#slabs) > 0) {
      this.#truncated = true;
      pieces.lineBreaks[pieces.head] = -1; // the first retained piece may have been cut
      compactFront(pieces, pieces.lineBreaks);
    }
  }

  // `piece` is the aggregate's copy; this queue holds it too, or merges it into a string.
  #appendPending(stream: OutputStream, piece: OutputText): void {
    const queue = this.#pending[stream];
    const last = queue.items.length - 1;
    // Consecutive small output of one stream is merged; the arrival order is unchanged by merging.
    const lastText = last >= queue.head && queue.seqs[last] === this.#nextSeq - 1 ? queue.items[last] : undefined;
    if (lastText !== undefined && lastText.length + piece.length <= OUTPUT_PIECE_CHARS) {
      queue.items[last] = decodeText(lastText) + decodeText(piece);
      releaseText(this.#slabs, lastText);
    } else {
      if (typeof piece !== "string") this.#slabs.hold(piece);
      queue.items.push(piece);
      queue.seqs.push(this.#nextSeq++);
    }
    queue.chars += piece.length;
    // OUT-11: only this stream's oldest text is dropped; the other stream and the order are untouched.
    if (trimFront(queue, this.pendingCap, this.#slabs) > 0) {
      this.#truncated = true;
      this.#pendingDropped = true;
      compactFront(queue, queue.seqs);
    }
  }

  // A copy the buffer owns of a lent piece: bytes in the slabs, or a string when short.
  #keep(lent: OutputText): OutputText {
    if (typeof lent === "string") return lent;
    return lent.length < MIN_SLAB_PIECE_BYTES ? decodeText(lent) : this.#slabs.store(lent);
  }

  #releaseRetained(queue: TextQueue): void {
    for (let k = queue.head; k < queue.items.length; k++) releaseText(this.#slabs, queue.items[k] ?? "");
  }

  /** Returns all pending output of both streams in arrival order (untrimmed) and empties it. */
  drainPending(): string {
    const out = this.#mergePending();
    for (const queue of Object.values(this.#pending)) {
      this.#releaseRetained(queue);
      queue.items = [];
      queue.seqs = [];
      queue.head = 0;
      queue.chars = 0;
    }
    return out;
  }

  #mergePending(): string {
    const { stdout, stderr } = this.#pending;
    const parts: OutputText[] = [];
    let i = stdout.head;
    let j = stderr.head;
    while (i < stdout.items.length || j < stderr.items.length) {
      const stdoutSeq = stdout.seqs[i] ?? Infinity;
      const stderrSeq = stderr.seqs[j] ?? Infinity;
      parts.push((stdoutSeq < stderrSeq ? stdout.items[i++] : stderr.items[j++]) ?? "");
    }
    return joinTexts(parts);
  }

  get hasPending(): boolean {
    return this.#pending.stdout.chars > 0 || this.#pending.stderr.chars > 0;
  }

  /** True when pending output was dropped at the pending cap since the last takePendingDropped(). */
  get pendingOutputDropped(): boolean {
    return this.#pendingDropped;
  }

  /** Returns pendingOutputDropped and resets it, as the poll that shows the omitted note does (OUT-17). */
  takePendingDropped(): boolean {
    const dropped = this.#pendingDropped;
    this.#pendingDropped = false;
    return dropped;
  }

  /**
   * Stops accepting output at completion; pending output stays until drained (REG-03, POLL-14). What is retained
   * becomes strings, so that a finished record holds no slab.
   */
  freeze(): void {
    this.#frozen = true;
    void this.aggregate;
    for (const queue of Object.values(this.#pending)) {
      const texts = queue.items.slice(queue.head).map(decodeText);
      this.#releaseRetained(queue);
      queue.items = texts;
      queue.seqs = queue.seqs.slice(queue.head);
      queue.head = 0;
    }
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  get aggregate(): string {
    if (this.#aggregateCache === undefined) {
      const pieces = this.#pieces;
      // The joined piece keeps the sum of the counts only when every piece was counted: poll reads the aggregate
      // on every call and must not pay for counting.
      const counts = pieces.lineBreaks.slice(pieces.head);
      const lineBreaks = counts.every((count) => count >= 0) ? counts.reduce((sum, count) => sum + count, 0) : -1;
      const joined = joinTexts(pieces.items.slice(pieces.head));
      this.#releaseRetained(pieces);
      pieces.items = joined.length > 0 ? [joined] : [];
      pieces.lineBreaks = joined.length > 0 ? [lineBreaks] : [];
      pieces.head = 0;
      this.#aggregateCache = joined;
    }
    return this.#aggregateCache;
  }

  /** The last TAIL_CHARS characters of the aggregate, untrimmed (OUT-13). */
  get tail(): string {
    if (this.#tailCache === undefined) this.#tailCache = this.#readTail();
    return this.#tailCache;
  }

  #readTail(): string {
    if (this.#aggregateCache !== undefined) return this.#aggregateCache.slice(-TAIL_CHARS);
    const { items, head } = this.#pieces;
    const parts: OutputText[] = [];
    let chars = 0;
    for (let k = items.length - 1; k >= head && chars < TAIL_CHARS; k--) {
      const piece = sliceText(items[k] ?? "", chars - TAIL_CHARS);
      parts.push(piece);
      chars += piece.length;
    }
    return joinTexts(parts.reverse());
  }

  /** LF characters in the aggregate; only pieces appended or cut since the last call are counted (LOG-04). */
  get lineBreaks(): number {
    const { items, lineBreaks, head } = this.#pieces;
    let total = 0;
    for (let k = head; k < items.length; k++) {
      let count = lineBreaks[k] ?? -1;
      if (count < 0) lineBreaks[k] = count = countLineBreaks(items[k] ?? "");
      total += count;
    }
    return total;
  }

  /** Slabs that hold bytes this buffer retains; none once frozen. */
  get slabsHeld(): number {
    return this.#slabs.slabCount;
  }

  /** Current aggregate length in UTF-16 code units. */
  get length(): number {
    return this.#pieces.chars;
  }

  /** Every character ever appended, including discarded ones (OUT-09). */
  get totalOutputChars(): number {
    return this.#totalOutputChars;
  }

  /** True once output was cut from the aggregate or dropped from pending (OUT-09, OUT-11). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** True when part of the output was lost at the aggregate cap (OUT-09, RES-07). */
  get discarded(): boolean {
    return this.#totalOutputChars > this.#pieces.chars;
  }
}

// An idle buffer that took the byte, merge and trim paths once, kept for its shapes (shape-keeper.ts). Frozen, it
// holds a few short strings and no slab.
const shapeExample = keepShape(new OutputBuffer({ aggregateCap: 2048, pendingCap: 1024 }));
for (let k = 0; k < 3; k++) shapeExample.append("stdout", new Uint8Array(MIN_SLAB_PIECE_BYTES).fill(0x61));
shapeExample.freeze();
