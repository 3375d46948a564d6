// src/engine/spawn/pty-master.ts: the master side of a node-pty terminal, and the output still in the kernel when its
// stream is closed, read before the descriptor goes (the lost-tail fix, libuv issue #4992).
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IPty } from "node-pty";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { drainBeforeClose, masterOf } from "../../src/engine/spawn/pty-master.js";

const DRAIN_LIMIT_BYTES = 1024 * 1024;

let dir: string;
const fds: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pty-master-"));
});
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/** A descriptor open on a file holding `content`: reads return it, then 0 bytes, like a master that has ended. */
function fdWith(content: string | Buffer): number {
  const path = join(dir, `f${fds.length}`);
  writeFileSync(path, content);
  const fd = openSync(path, "r");
  fds.push(fd);
  return fd;
}

/** A stand-in for the master's read stream: records calls of destroy in `log`. */
function socketLogging(log: string[]): Socket {
  const socket = { destroyed: false, destroy() {
    log.push("destroy");
    socket.destroyed = true;
    return socket;
  } };
  return socket as unknown as Socket;
}

describe("masterOf", () => {
  it("reads node-pty's master descriptor and read stream from the terminal", () => {
    const socket = socketLogging([]);
    expect(masterOf({ fd: 17, _socket: socket } as unknown as IPty)).toEqual({ fd: 17, socket });
  });

  it.each([
    ["no descriptor", { _socket: socketLogging([]) }],
    ["no stream", { fd: 17 }],
    ["a stream without destroy", { fd: 17, _socket: {} }],
  ])("gives undefined for a terminal with %s", (_label, terminal) => {
    expect(masterOf(terminal as unknown as IPty)).toBeUndefined();
  });
});

describe("drainBeforeClose", () => {
  it("delivers what the descriptor still holds before the stream is destroyed", () => {
    const log: string[] = [];
    const socket = socketLogging(log);
    drainBeforeClose({ fd: fdWith("tail of the output"), socket }, (chunk) => void log.push(`data:${chunk.toString()}`));
    socket.destroy();
    expect(log).toEqual(["data:tail of the output", "destroy"]);
  });

  it("drains once: a second destroy only destroys", () => {
    const log: string[] = [];
    const socket = socketLogging(log);
    drainBeforeClose({ fd: fdWith("once"), socket }, (chunk) => void log.push(`data:${chunk.toString()}`));
    socket.destroy();
    socket.destroy();
    expect(log).toEqual(["data:once", "destroy", "destroy"]);
  });

  it("stops at 1 MiB, for a process that keeps writing to the terminal", () => {
    let delivered = 0;
    const socket = socketLogging([]);
    drainBeforeClose({ fd: fdWith(Buffer.alloc(3 * DRAIN_LIMIT_BYTES, 0x61)), socket }, (chunk) => void (delivered += chunk.length));
    socket.destroy();
    expect(delivered).toBe(DRAIN_LIMIT_BYTES);
  });

  it("delivers nothing from a descriptor that cannot be read", () => {
    const log: string[] = [];
    const socket = socketLogging(log);
    const fd = fdWith("closed");
    closeSync(fd);
    fds.splice(fds.indexOf(fd), 1);
    drainBeforeClose({ fd, socket }, () => void log.push("data"));
    socket.destroy();
    expect(log).toEqual(["destroy"]);
  });
});
