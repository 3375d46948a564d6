// src/engine/spawn/pipe-backend.ts: a plain child process with pipes: stdin closed at spawn (EXEC-45), leader of its
// own process group (EXEC-46), completion only after exit and end-of-file on both pipes (REG-04).
import { afterEach, describe, expect, it } from "vitest";
import type { ChildHandle, ChildSink, SpawnRequest } from "../../src/engine/spawn/child-handle.js";
import { spawnWithPipes } from "../../src/engine/spawn/pipe-backend.js";
import { killGroup, readProcTable, waitForGroupsGone } from "../reliability/helpers.js";

const started: ChildHandle[] = [];
afterEach(async () => {
  const groups = started.splice(0).map((handle) => handle.pid ?? 0);
  for (const pgid of groups) killGroup(pgid);
  await waitForGroupsGone(groups);
});

const request = (command: string): SpawnRequest =>
  ({ shell: "/bin/sh", args: ["-c"], command, cwd: "/", env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" } });

/**
 * Spawns and records every event in order; `done` resolves at completion. `copiesOutput`: the sink copies each
 * chunk, so the backend may lend views of its read buffer; `buffers` collects the memory those chunks are views of.
 */
async function run(command: string, { copiesOutput = false } = {}) {
  const events: Array<[string, ...unknown[]]> = [];
  const buffers = new Set<ArrayBufferLike>();
  let complete!: () => void;
  const done = new Promise<void>((resolve) => (complete = resolve));
  const sink: ChildSink = {
    copiesOutput,
    onOutput: (stream, chunk) => {
      if (typeof chunk !== "string") buffers.add(chunk.buffer);
      events.push(["output", stream, Buffer.from(chunk).toString()]);
    },
    onExit: (code, signal) => void events.push(["exit", code, signal]),
    onComplete: (code, signal) => {
      events.push(["complete", code, signal]);
      complete();
    },
  };
  const handle = await spawnWithPipes(request(command), sink);
  started.push(handle);
  return { handle, events, done, buffers };
}

const outputOf = (events: Array<[string, ...unknown[]]>, stream: string): string =>
  events.filter(([kind, s]) => kind === "output" && s === stream).map(([, , text]) => text).join("");

describe("spawnWithPipes", () => {
  it("delivers stdout and stderr separately, then the exit, then the completion with the exit code", async () => {
    const { events, done, handle } = await run("echo out; echo err >&2; exit 3");
    await done;
    expect(outputOf(events, "stdout")).toBe("out\n");
    expect(outputOf(events, "stderr")).toBe("err\n");
    expect(events.slice(-2)).toEqual([["exit", 3, null], ["complete", 3, null]]);
    expect(handle.pty).toBe(false);
  }, 30_000);

  it("closes stdin at spawn, so the command reads end-of-file at once and has no input handle (EXEC-45)", async () => {
    const { events, done, handle } = await run("wc -l");
    await done;
    expect(handle.stdin).toBeUndefined();
    expect(outputOf(events, "stdout").trim()).toBe("0");
  }, 30_000);

  it("makes the command the leader of its own process group (EXEC-46)", async () => {
    const { handle } = await run("sleep 30");
    const entry = readProcTable().find((p) => p.pid === handle.pid);
    expect(entry?.pgid).toBe(handle.pid);
  }, 30_000);

  it("signals the whole group: a child of the command ends with it (KILL-08)", async () => {
    const { handle, done, events } = await run("sleep 30 & sleep 30; wait");
    const pgid = handle.pid ?? 0;
    handle.signal?.("SIGTERM");
    await done;
    expect(events.at(-1)).toEqual(["complete", null, "SIGTERM"]);
    expect(await waitForGroupsGone([pgid])).toEqual([]);
  }, 30_000);

  it.each([false, true])("completes only after a process that inherited the output has closed it (REG-04; sink copies: %s)", async (copiesOutput) => {
    const { events, done } = await run("(sleep 0.3; echo late; echo late-err >&2) & echo early", { copiesOutput });
    await done;
    expect(outputOf(events, "stdout")).toBe("early\nlate\n");
    expect(outputOf(events, "stderr")).toBe("late-err\n");
    expect(events.findIndex(([kind]) => kind === "exit")).toBeLessThan(events.findIndex(([, , text]) => text === "late\n"));
    expect(events.at(-1)).toEqual(["complete", 0, null]);
  }, 30_000);

  it("lends a sink that copies its output views of one reused read buffer, every byte of both pipes in order", async () => {
    const expected = Array.from({ length: 300_000 }, (_, k) => `${k + 1}\n`).join("");
    const { events, done, buffers } = await run("seq 1 300000; seq 1 300000 >&2", { copiesOutput: true });
    await done;
    expect(outputOf(events, "stdout")).toBe(expected);
    expect(outputOf(events, "stderr")).toBe(expected);
    expect(events.filter(([kind]) => kind === "output").length).toBeGreaterThan(10);
    expect(buffers.size).toBe(1);
  }, 30_000);

  it("gives any other sink chunks of its own to keep", async () => {
    const { events, done, buffers } = await run("seq 1 300000");
    await done;
    expect(outputOf(events, "stdout").length).toBe(Array.from({ length: 300_000 }, (_, k) => `${k + 1}\n`).join("").length);
    expect(buffers.size).toBeGreaterThan(1);
  }, 30_000);

  it("rejects with a spawn-failed error that keeps the system's message and error as its cause when the shell cannot be started", async () => {
    const sink: ChildSink = { onOutput: () => {}, onExit: () => {}, onComplete: () => {} };
    await expect(spawnWithPipes({ ...request("true"), shell: "/nonexistent/shell" }, sink)).rejects.toMatchObject({
      code: "spawn-failed", message: "spawn /nonexistent/shell ENOENT", cause: { code: "ENOENT" },
    });
  });
});
