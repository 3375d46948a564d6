// Input to a terminal's master descriptor: queued, written only as fast as the terminal accepts it, never spinning.
import { writeSync } from "node:fs";
import { ExecProcessError } from "../errors.js";

/** First pause after the terminal refused input (EAGAIN); doubles on each refusal up to the maximum. */
const RETRY_MIN_MS = 2;
const RETRY_MAX_MS = 100;
/** Most input waiting for a program that does not read; a write beyond it is refused, so memory stays bounded. */
export const PENDING_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * A FIFO of pending input for one terminal. Each attempt is a non-blocking `writeSync` on the main thread, so the
 * descriptor cannot be closed between the liveness check and the write; a full terminal (EAGAIN) is retried on a
 * backing-off timer instead of node-pty's `setImmediate` loop, and any other error (EBADF, EIO: the terminal is
 * gone) drops the queue quietly.
 */
export class PtyWriter {
  readonly #fd: number;
  readonly #isOpen: () => boolean;
  #queue: Buffer[] = [];
  #offset = 0;
  #pendingBytes = 0;
  #retryMs = RETRY_MIN_MS;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  /** `isOpen` must turn false before the descriptor is closed. */
  constructor(fd: number, isOpen: () => boolean) {
    this.#fd = fd;
    this.#isOpen = isOpen;
  }

  /**
   * Queues the data; as much as the terminal accepts now is written before this returns. Throws, queueing nothing,
   * when the pending input would exceed PENDING_LIMIT_BYTES, unless `bounded` is false (the few bytes of an EOF
   * character or a terminal reply, which must not fail).
   */
  write(data: string | Uint8Array, bounded = true): void {
    if (this.#closed) return;
    const buffer = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
    if (buffer.byteLength === 0) return;
    if (bounded && this.#pendingBytes + buffer.byteLength > PENDING_LIMIT_BYTES) {
      throw new ExecProcessError({ code: "input-queue-full", pendingBytes: this.#pendingBytes });
    }
    this.#queue.push(buffer);
    this.#pendingBytes += buffer.byteLength;
    if (this.#timer === undefined) this.#flush();
  }

  /** Bytes accepted by `write` and not yet taken by the terminal. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Drops pending input and the retry timer; later writes are ignored. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#offset = 0;
    this.#pendingBytes = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      if (!this.#isOpen()) return this.close();
      const head = this.#queue[0] as Buffer;
      let written: number;
      try {
        written = writeSync(this.#fd, head, this.#offset, head.byteLength - this.#offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return this.#retryLater();
        return this.close();
      }
      this.#retryMs = RETRY_MIN_MS;
      this.#offset += written;
      this.#pendingBytes -= written;
      if (this.#offset >= head.byteLength) {
        this.#queue.shift();
        this.#offset = 0;
      }
    }
  }

  #retryLater(): void {
    this.#timer = setTimeout(() => this.#flush(), this.#retryMs);
    this.#timer.unref(); // the terminal, not its pending input, decides whether the host stays alive
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
  }
}
