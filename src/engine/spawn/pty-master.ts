// The master side of a node-pty terminal: its descriptor and read stream, and the output still in the kernel when
// that stream is closed.
import { readSync } from "node:fs";
import type { Socket } from "node:net";
import type { IPty } from "node-pty";

/** Most bytes read from a closing master; bounds the read when an escaped process keeps writing to the terminal. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;
const DRAIN_CHUNK_BYTES = 64 * 1024;

export interface PtyMaster {
  readonly fd: number;
  readonly socket: Socket;
}

/** node-pty's Unix terminal keeps its master descriptor and read stream on `fd` and `_socket` (not in its typings). */
export function masterOf(terminal: IPty): PtyMaster | undefined {
  const internals = terminal as unknown as { fd?: unknown; _socket?: unknown };
  const { fd, _socket: socket } = internals;
  if (typeof fd !== "number" || !socket || typeof (socket as Socket).destroy !== "function") return undefined;
  return { fd, socket: socket as Socket };
}

/**
 * Makes every close of the master read what the kernel still holds first and hand it to `deliver`.
 * libuv takes a short read together with POLLHUP as end-of-file, which a Linux PTY master breaks: after the slave
 * closed it can return a short read and still hold more output (libuv issue #4992, fixed by its PRs #4997 and
 * #5165; Node 20 ships libuv 1.46). The stream then ends early and the tail is lost: `seq 1 20000; printf LAST`
 * lost it in more than half of the runs at concurrency 8 (Linux 6.18, node-pty 1.1.0). node-pty's fallback for a
 * stream that never ends closes it too, 200 ms after the exit. All of these paths go through `socket.destroy()`,
 * which closes the descriptor synchronously, so reading just before it is the one place where nothing can be lost
 * and the descriptor cannot yet belong to another file.
 */
export function drainBeforeClose(master: PtyMaster, deliver: (chunk: Buffer) => void): void {
  const { socket, fd } = master;
  const destroy = socket.destroy;
  let drained = false;
  socket.destroy = function destroyAfterDrain(this: Socket, ...args: Parameters<Socket["destroy"]>) {
    if (!drained && !socket.destroyed) {
      drained = true;
      drainMaster(fd, deliver);
    }
    return destroy.apply(this, args);
  };
}

/** Reads the master until it has nothing more now (EAGAIN), has ended (EIO, 0 bytes) or the limit is reached. */
function drainMaster(fd: number, deliver: (chunk: Buffer) => void): void {
  const buffer = Buffer.alloc(DRAIN_CHUNK_BYTES);
  for (let total = 0; total < DRAIN_LIMIT_BYTES;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.byteLength, null);
    } catch {
      return; // EAGAIN: nothing queued; EIO: the terminal has ended
    }
    if (read === 0) return;
    total += read;
    deliver(Buffer.from(buffer.subarray(0, read)));
  }
}
