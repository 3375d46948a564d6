// Reads a child's output pipe into one reused buffer. A `data` listener gets a fresh 64 KB buffer for every read,
// freed only by a later garbage collection: at the hundreds of MB/s of a `yes` flood that is tens of MB of memory
// waiting at any time (bench/README.md, "the read path, measured"). Node reads into a caller's buffer only for
// sockets it builds itself (`net.Socket`'s `onread` option), so the pipe's handle moves to such a socket.
import { Socket } from "node:net";
import type { Readable } from "node:stream";
import type { OutputStream } from "../output-buffer.js";
import { keepShape } from "../shape-keeper.js";

/** The size of one read, as libuv's own suggestion for a pipe. */
const READ_BUFFER_BYTES = 64 * 1024;

// One buffer serves every lent pipe: libuv reads into it and the chunk is delivered before the event loop reads
// again, and a receiver keeps copies only. Allocated at the first lent read.
let sharedReadBuffer: Uint8Array | undefined;
const readBuffer = (): Uint8Array => (sharedReadBuffer ??= Buffer.allocUnsafeSlow(READ_BUFFER_BYTES));

export interface PipeReader {
  /** Resolves after the last chunk, once the pipe is closed. */
  readonly closed: Promise<void>;
  /** Chunks that arrive from now on are dropped. */
  stopDelivering(): void;
  unref(): void;
}

// The parts of the pipe's libuv handle that the takeover needs; undocumented, so checked before use.
interface PipeHandle {
  readStart(): number;
  useUserBuffer(buffer: Uint8Array): void;
}

function pipeHandleOf(stream: Readable): PipeHandle | undefined {
  const handle = (stream as { _handle?: Partial<PipeHandle> | null })._handle;
  const usable = handle && typeof handle.readStart === "function" && typeof handle.useUserBuffer === "function" &&
    stream.readableLength === 0 && !stream.destroyed;
  return usable ? (handle as PipeHandle) : undefined;
}

/** Where a pipe's chunks go, with the name of the stream they belong to. */
export interface ChunkReceiver {
  onOutput(stream: OutputStream, chunk: Uint8Array): void;
}

// What a pipe delivers to. Chunks reach it through module functions and methods only, never through a closure made
// for one pipe: optimized code of the read path inlines its call targets, and a closure of one session in that code
// is gone after the session ends and the next full garbage collections run, and the code with it (issue 36 item 4).
class Delivery {
  delivering = true;

  constructor(readonly receiver: ChunkReceiver, readonly stream: OutputStream) {}

  deliver(chunk: Uint8Array): void {
    if (this.delivering) this.receiver.onOutput(this.stream, chunk);
  }
}

keepShape(new Delivery({ onOutput: () => {} }, "stdout")); // shape-keeper.ts

// The delivery of each reader (the socket that took the handle over, or the child's own stream).
const deliveries = new WeakMap<object, Delivery>();

// A `data` listener: the emitter is `this`.
function onData(this: Readable, chunk: Uint8Array): void {
  deliveries.get(this)?.deliver(chunk);
}

// The socket's `onread` callback: Node calls it as a method of the socket.
function onLentRead(this: Readable, bytes: number, into: Uint8Array): boolean {
  deliveries.get(this)?.deliver(into.subarray(0, bytes));
  return true;
}

/**
 * Delivers what the pipe carries to `receiver`, as output of `name`. With `lend`, a chunk is a view of the read
 * buffer that all lent pipes share, valid only during the call (the receiver copies what it keeps); otherwise, or
 * when this Node has no such handle, each chunk is a buffer of its own. Call it right after spawn, before the event
 * loop has read anything.
 */
export function readPipe(stream: Readable, receiver: ChunkReceiver, name: OutputStream, lend: boolean): PipeReader {
  const delivery = new Delivery(receiver, name);
  const handle = lend ? pipeHandleOf(stream) : undefined;
  const reader = handle ? lendInPlace(stream, handle) ?? takeOver(stream, handle) : stream;
  deliveries.set(reader, delivery);
  if (!handle) reader.on("data", onData);
  reader.on("error", () => {}); // a failed read ends the pipe like its end does; close follows
  const closed = new Promise<void>((resolve) => reader.once("close", () => resolve()));
  return {
    closed,
    stopDelivering: () => {
      delivery.delivering = false;
    },
    unref: () => (reader as Partial<Socket>).unref?.(),
  };
}

// A socket keeps the buffer and callback of its `onread` option under two symbols of Node's own, set (to null when
// unused) on every socket. Found once by their descriptions; null when this Node has no such pair.
let onreadSymbols: { buffer: symbol; callback: symbol } | null | undefined;

function onreadSymbolsOf(stream: object): { buffer: symbol; callback: symbol } | null {
  if (onreadSymbols !== undefined) return onreadSymbols;
  const symbols = Object.getOwnPropertySymbols(stream);
  const buffer = symbols.find((symbol) => symbol.description === "kBuffer");
  const callback = symbols.find((symbol) => symbol.description === "kBufferCb");
  return (onreadSymbols = buffer && callback ? { buffer, callback } : null);
}

// The child's own stream (a socket) becomes one with an `onread` buffer, as if built with that option: its reads
// land in the shared buffer from now on. Half the cost of a takeover, which builds a second socket (issue 36).
function lendInPlace(stream: Readable, handle: PipeHandle): Readable | undefined {
  const symbols = onreadSymbolsOf(stream);
  const fields = stream as unknown as Record<symbol, unknown>;
  if (!symbols || fields[symbols.buffer] !== null || fields[symbols.callback] !== null) return undefined;
  const buffer = readBuffer();
  fields[symbols.buffer] = buffer;
  fields[symbols.callback] = onLentRead;
  handle.useUserBuffer(buffer);
  return stream;
}

// Where the child's own stream cannot lend: it lets go of the handle (its close still tells the ChildProcess it is
// done) and a socket with a reused read buffer becomes its owner: the reads the stream started now land there.
function takeOver(stream: Readable, handle: PipeHandle): Socket {
  (stream as unknown as { _handle: unknown })._handle = null;
  stream.destroy();
  return new Socket({
    handle, readable: true, writable: false, onread: { buffer: readBuffer(), callback: onLentRead },
  } as ConstructorParameters<typeof Socket>[0]);
}
