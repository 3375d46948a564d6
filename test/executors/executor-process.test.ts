// src/executors/executor-process.ts: an executor's process whose events may come before the engine subscribes. They
// are queued and delivered in order on a later turn; later events go straight through; exit once, nothing after it.
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createQueuedProcess } from "../../src/executors/executor-process.js";

type Seen = ["output", "stdout" | "stderr", string | Uint8Array] | ["exit", number | null, string | null];

/** Subscribes to both events; `exited` resolves at the first exit delivered. */
function subscribe(process: ReturnType<typeof createQueuedProcess>["process"]): { seen: Seen[]; exited: Promise<void> } {
  const seen: Seen[] = [];
  let onExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => (onExited = resolve));
  process.onOutput((stream, chunk) => void seen.push(["output", stream, chunk]));
  process.onExit((code, signal) => {
    seen.push(["exit", code, signal]);
    onExited();
  });
  return { seen, exited };
}

describe("createQueuedProcess", () => {
  it("delivers events from before the subscription after it, on a later turn, in their order", async () => {
    const { process, events } = createQueuedProcess();
    events.output("stdout", "a");
    events.output("stderr", "b");
    events.output("stdout", "c");
    events.exit(0, null);
    const { seen, exited } = subscribe(process);
    expect(seen).toEqual([]); // not during the subscription: the engine attaches the process to its session first
    await exited;
    expect(seen).toEqual([["output", "stdout", "a"], ["output", "stderr", "b"], ["output", "stdout", "c"], ["exit", 0, null]]);
  });

  it("delivers events that come after the first delivery at once, in the caller's turn", async () => {
    const { process, events } = createQueuedProcess();
    events.output("stdout", "queued");
    const { seen, exited } = subscribe(process);
    await nextTurn();
    expect(seen).toEqual([["output", "stdout", "queued"]]);
    events.output("stderr", "live");
    expect(seen).toEqual([["output", "stdout", "queued"], ["output", "stderr", "live"]]);
    events.exit(null, "SIGTERM");
    expect(seen.at(-1)).toEqual(["exit", null, "SIGTERM"]);
    await exited;
  });

  it("queues events between the subscription and the delivery behind the earlier ones", async () => {
    const { process, events } = createQueuedProcess();
    events.output("stdout", "before");
    const { seen, exited } = subscribe(process);
    events.output("stdout", "between");
    events.exit(3, null);
    await exited;
    expect(seen).toEqual([["output", "stdout", "before"], ["output", "stdout", "between"], ["exit", 3, null]]);
  });

  it("hands a binary chunk over as it is", async () => {
    const { process, events } = createQueuedProcess();
    const chunk = new Uint8Array([0xe2, 0x82]);
    events.output("stdout", chunk);
    events.exit(0, null);
    const { seen, exited } = subscribe(process);
    await exited;
    expect(seen[0]?.[2]).toBe(chunk);
  });

  it("ignores output after the exit and every exit after the first, queued or live", async () => {
    const { process, events } = createQueuedProcess();
    events.output("stdout", "kept");
    events.exit(1, null);
    events.output("stdout", "late");
    events.exit(2, "SIGKILL");
    const { seen, exited } = subscribe(process);
    await exited;
    events.output("stderr", "later");
    events.exit(4, null);
    expect(seen).toEqual([["output", "stdout", "kept"], ["exit", 1, null]]);
  });
});
