// src/engine/host-exit-cleanup.ts: the sessions of every engine end when the host ends. In-process, only the signal
// path with a host handler of its own can be driven (the exit hook and a re-raised signal would end the test worker):
// test/reliability/host-end-cleanup.test.ts and host-shutdown.test.ts run real hosts for the rest.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanupOnHostExit, type HostExitTarget } from "../../src/engine/host-exit-cleanup.js";

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
const hostHandler = (): void => {};
const unregister: Array<() => void> = [];

beforeEach(() => {
  for (const signal of SIGNALS) process.on(signal, hostHandler);
});
afterEach(() => {
  for (const stop of unregister.splice(0)) stop();
  for (const signal of SIGNALS) process.removeListener(signal, hostHandler);
});

function target(log: string[], name: string, fail = false): HostExitTarget {
  return {
    killNow: () => void log.push(`${name}:killNow`),
    terminateAll: () => {
      log.push(`${name}:terminateAll`);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe("cleanupOnHostExit", () => {
  it.each(SIGNALS)("terminates the sessions of every registered engine on %s and leaves the host to its own handler", (signal) => {
    const log: string[] = [];
    unregister.push(cleanupOnHostExit(target(log, "a")), cleanupOnHostExit(target(log, "b")));
    process.emit(signal, signal);
    expect(log).toEqual(["a:terminateAll", "b:terminateAll"]);
  });

  it("goes on to the next engine when one fails", () => {
    const log: string[] = [];
    unregister.push(cleanupOnHostExit(target(log, "a", true)), cleanupOnHostExit(target(log, "b")));
    process.emit("SIGTERM", "SIGTERM");
    expect(log).toEqual(["a:terminateAll", "b:terminateAll"]);
  });

  it("forgets an unregistered engine, and removes its listeners once the last engine is gone", () => {
    const before = SIGNALS.map((signal) => process.listenerCount(signal));
    const log: string[] = [];
    const stopA = cleanupOnHostExit(target(log, "a"));
    const stopB = cleanupOnHostExit(target(log, "b"));
    expect(SIGNALS.map((signal) => process.listenerCount(signal)).every((count, i) => count > (before[i] ?? 0))).toBe(true);
    stopA();
    process.emit("SIGINT", "SIGINT");
    expect(log).toEqual(["b:terminateAll"]);
    stopB();
    stopB();
    expect(SIGNALS.map((signal) => process.listenerCount(signal))).toEqual(before);
  });
});
