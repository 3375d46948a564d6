// src/engine/spawn/pty-writer.ts: input to a terminal's master descriptor, queued and bounded, never spinning.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { masterOf } from "../../src/engine/spawn/pty-master.js";
import { PENDING_LIMIT_BYTES, PtyWriter } from "../../src/engine/spawn/pty-writer.js";
import { killGroup, killProcess } from "../reliability/helpers.js";

const nodePty = await import("node-pty").catch(() => undefined); // optional dependency

let dir: string;
let path: string;
let fd: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pty-writer-"));
  path = join(dir, "input");
  fd = openSync(path, "w");
});
afterEach(() => {
  try {
    closeSync(fd);
  } catch {
    // closed by the test
  }
  rmSync(dir, { recursive: true, force: true });
});

const written = (): string => readFileSync(path, "utf8");

describe("PtyWriter", () => {
  it("writes text as UTF-8 and bytes as given, in order, before write returns", () => {
    const writer = new PtyWriter(fd, () => true);
    writer.write("héllo ");
    writer.write(new Uint8Array([0x77, 0x6f, 0x72, 0x6c, 0x64]));
    expect(written()).toBe("héllo world");
    expect(writer.pendingBytes).toBe(0);
  });

  it("refuses a write beyond the pending limit, queueing nothing, with the queue-full text", () => {
    const writer = new PtyWriter(fd, () => true);
    expect(() => writer.write(Buffer.alloc(PENDING_LIMIT_BYTES + 1))).toThrow(messages.ptyInputQueueFull(0));
    expect(writer.pendingBytes).toBe(0);
    expect(written()).toBe("");
  });

  it("accepts an unbounded write over the limit, for an EOF character or a terminal reply", () => {
    const writer = new PtyWriter(fd, () => true);
    writer.write(Buffer.alloc(PENDING_LIMIT_BYTES + 1, 0x61), false);
    expect(written().length).toBe(PENDING_LIMIT_BYTES + 1);
  });

  it("drops its input quietly once the terminal is closed", () => {
    let open = true;
    const writer = new PtyWriter(fd, () => open);
    open = false;
    writer.write("lost");
    expect(writer.pendingBytes).toBe(0);
    writer.write("also lost");
    expect(written()).toBe("");
  });

  it("drops its input quietly when the descriptor fails with an error other than EAGAIN", () => {
    closeSync(fd);
    const writer = new PtyWriter(fd, () => true);
    writer.write("to a closed descriptor");
    expect(writer.pendingBytes).toBe(0);
  });

  it("ignores writes after close and ignores empty writes", () => {
    const writer = new PtyWriter(fd, () => true);
    writer.write("");
    writer.close();
    writer.write("after close");
    expect(written()).toBe("");
    expect(writer.pendingBytes).toBe(0);
  });
});

describe.runIf(nodePty !== undefined)("PtyWriter on a terminal whose program does not read", () => {
  it("queues what the terminal does not take yet, and refuses a write that would pass the limit, naming the pending bytes", async () => {
    const terminal = nodePty!.spawn("/bin/sh", ["-c", "sleep 30"], { cols: 80, rows: 24, cwd: "/", env: { PATH: process.env["PATH"] ?? "" } });
    const exited = new Promise((resolve) => terminal.onExit(resolve));
    try {
      const master = masterOf(terminal);
      expect(master).toBeDefined();
      const writer = new PtyWriter(master!.fd, () => !master!.socket.destroyed);
      const sent = 1024 * 1024;
      writer.write("a".repeat(sent));
      const pending = writer.pendingBytes;
      expect(pending).toBeGreaterThan(0); // the terminal took only its buffer's worth
      expect(pending).toBeLessThan(sent);
      expect(() => writer.write(Buffer.alloc(PENDING_LIMIT_BYTES - pending + 1))).toThrow(messages.ptyInputQueueFull(pending));
      expect(writer.pendingBytes).toBe(pending);
      writer.close();
      expect(writer.pendingBytes).toBe(0);
    } finally {
      // The shell leads the terminal's group, so sleep goes with it; a child that has not yet made its own session
      // (a loaded machine: this test writes at once) has no group yet, and is killed as a process.
      killGroup(terminal.pid);
      killProcess(terminal.pid);
      await exited;
    }
  }, 30_000);
});
