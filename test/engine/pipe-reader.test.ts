// src/engine/spawn/pipe-reader.ts: a child's output pipe read into one reused buffer, or with data events.
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { readPipe, type ChunkReceiver } from "../../src/engine/spawn/pipe-reader.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function spawnShell(command: string): ChildProcess {
  const child = spawn("/bin/sh", ["-c", command], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  return child;
}

/** A receiver that hands every chunk of stdout to `onChunk`, and fails on any other stream name. */
function receiver(onChunk: (chunk: Uint8Array) => void): ChunkReceiver {
  return {
    onOutput(stream, chunk) {
      expect(stream).toBe("stdout");
      onChunk(chunk);
    },
  };
}

/** Reads the child's stdout; copies each chunk, and notes the memory each chunk is a view of. */
function collect(child: ChildProcess, lend: boolean) {
  const copies: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  const reader = readPipe(child.stdout!, receiver((chunk) => {
    buffers.add(chunk.buffer);
    copies.push(Buffer.from(chunk));
  }), "stdout", lend);
  return { reader, buffers, text: () => Buffer.concat(copies).toString("latin1") };
}

const exited = (child: ChildProcess): Promise<void> => new Promise((resolve) => child.once("close", () => resolve()));

describe("readPipe", () => {
  it("lends views of one reused buffer, every byte in order, and resolves closed after the last chunk", async () => {
    const child = spawnShell("head -c 3000000 /dev/zero | tr '\\0' a; printf end");
    const { reader, buffers, text } = collect(child, true);
    await reader.closed;
    expect(text()).toBe(`${"a".repeat(3_000_000)}end`);
    expect(buffers.size).toBe(1);
  }, 30_000);

  it("lends every pipe the same buffer: a chunk is read and delivered before the next read", async () => {
    const [one, two] = [spawnShell("seq 1 200000"), spawnShell("seq 200001 400000")];
    const [first, second] = [collect(one, true), collect(two, true)];
    await Promise.all([first.reader.closed, second.reader.closed]);
    const lines = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, k) => `${from + k}\n`).join("");
    expect([first.text(), second.text()]).toEqual([lines(1, 200000), lines(200001, 400000)]);
    expect(new Set([...first.buffers, ...second.buffers]).size).toBe(1);
  }, 30_000);

  it("leaves the child process able to report its close", async () => {
    const child = spawnShell("echo done");
    const { reader, text } = collect(child, true);
    await Promise.all([reader.closed, exited(child)]);
    expect(text()).toBe("done\n");
  }, 30_000);

  it("lends the buffer to the child's own stream, which stays open and closes last: no second socket is built", async () => {
    const child = spawnShell("printf lent");
    const { reader, buffers, text } = collect(child, true);
    expect(child.stdout!.destroyed).toBe(false);
    await Promise.all([reader.closed, exited(child)]);
    expect(text()).toBe("lent");
    expect(buffers.size).toBe(1);
    expect(child.stdout!.destroyed).toBe(true);
  }, 30_000);

  it("gives chunks of their own without lending", async () => {
    const child = spawnShell("head -c 3000000 /dev/zero | tr '\\0' b");
    const { reader, buffers, text } = collect(child, false);
    await reader.closed;
    expect(text()).toBe("b".repeat(3_000_000));
    expect(buffers.size).toBeGreaterThan(1);
  }, 30_000);

  it("falls back to data events for a stream without a pipe handle", async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    const reader = readPipe(stream, receiver((chunk) => chunks.push(Buffer.from(chunk).toString())), "stdout", true);
    stream.end("plain stream");
    await reader.closed;
    expect(chunks.join("")).toBe("plain stream");
  });

  it("drops the chunks that arrive after stopDelivering, and still closes", async () => {
    const child = spawnShell("echo first; sleep 0.3; echo second");
    const chunks: string[] = [];
    const reader = readPipe(child.stdout!, receiver((chunk) => {
      chunks.push(Buffer.from(chunk).toString());
      reader.stopDelivering();
    }), "stdout", true);
    await reader.closed;
    expect(chunks).toEqual(["first\n"]);
  }, 30_000);
});
