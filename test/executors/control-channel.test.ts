// The sandbox's control channel on its own: a FIFO in a private folder, read without blocking and at most
// CONTROL_LIMIT_BYTES, whatever the other end does.
import { closeSync, constants, existsSync, openSync, readdirSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONTROL_LIMIT_BYTES, openControlChannel, type ControlChannel } from "../../src/executors/sandbox/control-channel.js";
import { cleanUp, onCleanUp, scratchDir, waitUntil } from "./helpers.js";

afterEach(cleanUp);

async function channelIn(base: string, seccomp?: Buffer): Promise<ControlChannel> {
  const channel = await openControlChannel(base, seccomp);
  onCleanUp(() => channel.close());
  return channel;
}

/** The supervisor's side: opens the FIFO for writing (the reader is there, so this does not block). */
function writerOf(channel: ControlChannel): { write(text: string): number | string; close(): void } {
  const fd = openSync(channel.fifoPath, constants.O_WRONLY | constants.O_NONBLOCK);
  return {
    write: (text) => {
      try {
        return writeSync(fd, text);
      } catch (error) {
        return (error as NodeJS.ErrnoException).code ?? "error";
      }
    },
    close: () => closeSync(fd),
  };
}

describe("openControlChannel", () => {
  it("makes a private folder with the FIFO and the seccomp program, and removes it on request", async () => {
    const base = scratchDir("channel-base-");
    const channel = await channelIn(base, Buffer.from([1, 2, 3]));
    const dir = dirname(channel.fifoPath);
    expect(readdirSync(base)).toEqual([dir.slice(base.length + 1)]);
    expect(dir.slice(base.length + 1)).toMatch(/^sandbox-/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(channel.fifoPath).isFIFO()).toBe(true);
    expect(channel.seccompPath && statSync(channel.seccompPath).size).toBe(3);
    await channel.removeDirectory();
    expect(readdirSync(base)).toEqual([]);
  });

  it("reads the start, the exit and a refusal, each on its own line, and ignores lines that are not reports", async () => {
    const channel = await channelIn(scratchDir("channel-base-"));
    const writer = writerOf(channel);
    writer.write('garbage{"started":true}');
    writer.write('\n{"started":true}\nnot json\n{"exit":{"code":null,"signal":"SIGTERM"}}\n');
    expect(await waitUntil(() => channel.started(), 5_000)).toBe(true);
    writer.write('{"refused":2}\n{"error":"spawn /bin/nope ENOENT"}\n');
    writer.close();
    expect(await channel.finish()).toEqual({
      started: true, exit: { code: null, signal: "SIGTERM" }, refused: 2, error: "spawn /bin/nope ENOENT",
    });
  });

  it(`stops reading after ${CONTROL_LIMIT_BYTES} bytes and keeps what came before`, async () => {
    const base = scratchDir("channel-base-");
    const channel = await channelIn(base);
    const writer = writerOf(channel);
    writer.write('{"started":true}\n');
    expect(await waitUntil(() => channel.started(), 5_000)).toBe(true);
    let written = 0;
    let refusedBy: string | undefined;
    const deadline = Date.now() + 10_000;
    while (refusedBy === undefined && Date.now() < deadline) {
      const result = writer.write("x".repeat(4096));
      if (typeof result === "number") written += result;
      else if (result === "EAGAIN") await new Promise((resolve) => setTimeout(resolve, 10)); // full for the moment
      else refusedBy = result;
    }
    writer.close();
    expect(refusedBy).toBe("EPIPE"); // the host closed its end
    expect(written).toBeLessThan(1024 * 1024);
    expect(await channel.finish()).toEqual({ started: true });
    expect(existsSync(channel.fifoPath)).toBe(false);
  });

  it("keeps a report that one read brought in together with a flood behind it, and stops there", async () => {
    const channel = await channelIn(scratchDir("channel-base-"));
    const writer = writerOf(channel);
    writer.write(`\n{"started":true}\n${"x".repeat(2 * CONTROL_LIMIT_BYTES)}\n{"exit":{"code":0,"signal":null}}\n`);
    writer.close();
    expect(await channel.finish()).toEqual({ started: true });
  });

  it("finishes within a bounded time when no one ever opened the other end", async () => {
    const channel = await channelIn(scratchDir("channel-base-"));
    const startedAt = Date.now();
    expect(await channel.finish()).toEqual({ started: false });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });
});
