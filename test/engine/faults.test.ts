// src/engine/spawn/faults.ts: faults injected on purpose make one local backend fail, so that PTY-05, PTY-06 and
// INPUT-07 can be checked for real.
import { describe, expect, it } from "vitest";
import type { ChildHandle, ChildSink, SpawnRequest, StdinHandle } from "../../src/engine/spawn/child-handle.js";
import { withFaults, type LocalBackends } from "../../src/engine/spawn/faults.js";

const request: SpawnRequest = { shell: "/bin/sh", args: ["-c"], command: "true", cwd: "/", env: {} };
const sink: ChildSink = { onOutput: () => {}, onExit: () => {}, onComplete: () => {} };

function fakeBackends() {
  const ended: string[] = [];
  const writes: unknown[] = [];
  const handle = (pty: boolean): ChildHandle => {
    const stdin: StdinHandle = { write: async (data) => void writes.push(data), end: () => void ended.push("end"), writable: true };
    return { pid: pty ? 2 : 1, pty, cursorKeyMode: pty ? "unknown" : "normal", stdin, signal: undefined, release: () => {} };
  };
  const backends: LocalBackends = { pipes: async () => handle(false), pty: async () => handle(true) };
  return { backends, ended, writes };
}

describe("withFaults", () => {
  it("returns the backends themselves when no faults are given", () => {
    const { backends } = fakeBackends();
    expect(withFaults(backends, undefined)).toBe(backends);
  });

  it("makes the PTY backend fail with the given message and leaves pipes working (PTY-05)", async () => {
    const faulty = withFaults(fakeBackends().backends, { ptyUnavailable: "no terminal today" });
    await expect(faulty.pty(request, sink)).rejects.toThrow("no terminal today");
    expect((await faulty.pipes(request, sink)).pid).toBe(1);
  });

  it("makes the pipe backend fail with the given message (PTY-06)", async () => {
    const faulty = withFaults(fakeBackends().backends, { spawnUnavailable: "no processes today" });
    await expect(faulty.pipes(request, sink)).rejects.toThrow("no processes today");
  });

  it("makes every input write fail while end, writable and the rest of the handle still work (INPUT-07)", async () => {
    const { backends, ended, writes } = fakeBackends();
    const handle = await withFaults(backends, { stdinWriteError: "EPIPE" }).pty(request, sink);
    await expect(handle.stdin?.write("x")).rejects.toThrow("EPIPE");
    handle.stdin?.end();
    expect({ writes, ended, writable: handle.stdin?.writable, pid: handle.pid, pty: handle.pty })
      .toEqual({ writes: [], ended: ["end"], writable: true, pid: 2, pty: true });
  });
});
