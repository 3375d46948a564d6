// src/executors/sandbox/sandbox-kill.ts: how the engine's kill reaches a sandboxed command. Stand-ins for the local
// process (bwrap) and the start gate; a real process tree plays bwrap's session (bwrap, the namespace init, the
// processes inside) where signals must reach real processes.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { CursorKeyMode, ExecutorProcess, LocalProcess, TerminationSignal } from "../../src/engine/index.js";
import { endLeftovers, sandboxProcess } from "../../src/executors/sandbox/sandbox-kill.js";
import type { StartGate } from "../../src/executors/sandbox/start-gate.js";
import { cleanUp, killAll, markerSeconds, onCleanUp, processesWith, sleepers, waitUntil } from "./helpers.js";

afterEach(cleanUp);

const events: Pick<ExecutorProcess, "onOutput" | "onExit"> = { onOutput: () => {}, onExit: () => {} };
const stdin = { write: () => Promise.resolve(), end: () => {}, writable: true };

/** A local process that records the signals sent to it; `mode` is its terminal's current cursor-key mode. */
function fakeChild(options: { pid?: number | undefined; pty?: boolean; signalled?: boolean; withStdin?: boolean } = {}) {
  const signals: TerminationSignal[] = [];
  let mode: CursorKeyMode = "normal";
  const child: LocalProcess = {
    pid: "pid" in options ? options.pid : 4242,
    pty: options.pty ?? false,
    get cursorKeyMode() {
      return mode;
    },
    stdin: options.withStdin ? stdin : undefined,
    signal: options.signalled === false ? undefined : (name) => void signals.push(name),
    release: () => {},
  };
  return { child, signals, setMode: (next: CursorKeyMode) => void (mode = next) };
}

/** A start gate that holds every action until `open()`, as the real one does until the supervisor ran the shell. */
function heldGate(): StartGate & { held: Array<() => void>; open(): void } {
  let opened = false;
  const held: Array<() => void> = [];
  return {
    held,
    run: (action) => (opened ? action() : void held.push(action)),
    settled: () => Promise.resolve(),
    close: () => void held.splice(0),
    open() {
      opened = true;
      for (const action of held.splice(0)) action();
    },
  };
}

/** A detached shell (the leader of a session and a group, like bwrap) with `script` as its command; killed at clean-up. */
function startLeader(script: string) {
  const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "pipe", "ignore"], detached: true });
  const pid = child.pid;
  if (pid === undefined) throw new Error("the shell did not start");
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  void exited.then(() => (done = true));
  onCleanUp(() => {
    if (!done) killAll([{ pid }]);
  });
  return { pid, stdout: () => stdout, exited };
}

describe("sandboxProcess", () => {
  it("sends SIGTERM, once the start gate opens, to the processes inside: not to bwrap, not to the namespace init", async () => {
    const marker = markerSeconds();
    onCleanUp(() => killAll(processesWith(marker)));
    // bwrap (the leader) runs the init, which runs two processes inside and says how each of them ended.
    const bwrap = startLeader(`/bin/sh -c 'sleep ${marker} & sleep ${marker}; echo inner:$?; wait $!; echo inner-bg:$?'; echo outer:$?`);
    expect(await waitUntil(() => sleepers(marker) === 2, 10_000)).toBe(true);
    const { child, signals } = fakeChild({ pid: bwrap.pid });
    const gate = heldGate();
    const sandboxed = sandboxProcess(events, child, gate);
    sandboxed.kill?.("SIGTERM");
    expect(gate.held).toHaveLength(1);
    expect(sleepers(marker)).toBe(2);
    gate.open();
    expect(await bwrap.exited).toEqual({ code: 0, signal: null });
    expect(bwrap.stdout()).toBe("inner:143\ninner-bg:143\nouter:0\n");
    expect(signals).toEqual([]);
  });

  it("sends SIGKILL at once to the local process (bwrap's group or terminal session), without the start gate", () => {
    const { child, signals } = fakeChild();
    const gate = heldGate();
    sandboxProcess(events, child, gate).kill?.("SIGKILL");
    expect(signals).toEqual(["SIGKILL"]);
    expect(gate.held).toEqual([]);
  });

  it("is the events, bwrap's pid, the terminal's input and kill", () => {
    const { child } = fakeChild({ pid: 4242, withStdin: true });
    const sandboxed = sandboxProcess(events, child, heldGate());
    expect(Object.keys(sandboxed).sort()).toEqual(["kill", "onExit", "onOutput", "pid", "stdin"]);
    expect(sandboxed.onOutput).toBe(events.onOutput);
    expect(sandboxed.onExit).toBe(events.onExit);
    expect(sandboxed.pid).toBe(4242);
    expect(sandboxed.stdin).toBe(stdin);
  });

  it.each([
    ["a local process that cannot be signalled", { signalled: false }, ["onExit", "onOutput", "pid"]],
    ["a local process without a pid", { pid: undefined }, ["onExit", "onOutput"]],
  ])("has no kill for %s (KILL-05)", (_title, options, keys) => {
    const sandboxed = sandboxProcess(events, fakeChild(options).child, heldGate());
    expect(Object.keys(sandboxed).sort()).toEqual(keys);
  });

  it("reads the cursor-key mode of a terminal's child live, at each access", () => {
    const { child, setMode } = fakeChild({ pty: true });
    const sandboxed = sandboxProcess(events, child, heldGate());
    expect(sandboxed.cursorKeyMode).toBe("normal");
    setMode("application");
    expect(sandboxed.cursorKeyMode).toBe("application");
    expect(Object.keys(sandboxed)).toContain("cursorKeyMode");
  });

  it("has no cursor-key mode without a terminal, so the engine inspects nothing it would not", () => {
    const sandboxed = sandboxProcess(events, fakeChild({ pty: false }).child, heldGate());
    expect("cursorKeyMode" in sandboxed).toBe(false);
  });
});

describe("endLeftovers", () => {
  it("SIGKILLs every process left in bwrap's group, also one that ignores SIGTERM, and nothing outside it", async () => {
    const marker = markerSeconds();
    const other = markerSeconds();
    onCleanUp(() => killAll([...processesWith(marker), ...processesWith(other)]));
    const bwrap = startLeader(`trap '' TERM; sleep ${marker} & sleep ${marker} & setsid sleep ${other} >/dev/null & wait`);
    expect(await waitUntil(() => sleepers(marker) === 2 && sleepers(other) === 1, 10_000)).toBe(true);
    endLeftovers(bwrap.pid);
    expect(await bwrap.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(await waitUntil(() => sleepers(marker) === 0, 10_000)).toBe(true);
    expect(sleepers(other)).toBe(1);
  });
});
