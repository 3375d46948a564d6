// Reads a child's output pipe into one reused buffer. A `data` listener gets a fresh 64 KB buffer for every read,
// freed only by a later garbage collection: at the hundreds of MB/s of a `yes` flood that is tens of MB of memory
// waiting at any time (bench/README.md, "the read path, measured"). Node reads into a caller's buffer only for
// sockets it builds itself (`net.Socket`'s `onread` option), so the pipe's handle moves to such a socket.
import { Socket } from "node:net";
import type { Readable } from "node:stream";

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

/**
 * Delivers what the pipe carries to `onChunk`. With `lend`, a chunk is a view of the read buffer that all lent
 * pipes share, valid only during the call (the receiver copies what it keeps); otherwise, or when this Node has no
 * such handle, each chunk is a buffer of its own. Call it right after spawn, before the event loop has read anything.
 */
export function readPipe(stream: Readable, onChunk: (chunk: Uint8Array) => void, lend: boolean): PipeReader {
  let delivering = true;
  const deliver = (chunk: Uint8Array): void => {
    if (delivering) onChunk(chunk);
  };
  const handle = lend ? pipeHandleOf(stream) : undefined;
  const reader = handle ? takeOver(stream, handle, deliver) : stream;
  if (!handle) reader.on("data", deliver);
  reader.on("error", () => {}); // a failed read ends the pipe like its end does; close follows
  const closed = new Promise<void>((resolve) => reader.once("close", () => resolve()));
  return {
    closed,
    stopDelivering: () => {
      delivering = false;
    },
    unref: () => (reader as Partial<Socket>).unref?.(),
  };
}

// The child's own stream lets go of the handle (its close still tells the ChildProcess it is done) and a socket
// with a reused read buffer becomes its owner: the reads the stream started now land in that buffer.
function takeOver(stream: Readable, handle: PipeHandle, deliver: (chunk: Uint8Array) => void): Socket {
  (stream as unknown as { _handle: unknown })._handle = null;
  stream.destroy();
  return new Socket({
    handle, readable: true, writable: false,
    onread: {
      buffer: readBuffer(),
      callback: (bytes: number, into: Uint8Array) => {
        deliver(into.subarray(0, bytes));
        return true;
      },
    },
  } as ConstructorParameters<typeof Socket>[0]);
}
