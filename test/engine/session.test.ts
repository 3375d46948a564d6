// Session as a state machine (REG-12): who sees it, how it ends, and what its backend reports to it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT_CODE_NOT_EXECUTABLE, EXIT_CODE_NOT_FOUND, KILL_GRACE_MS, KILL_SETTLE_MS } from "../../src/engine/settings.js";
import { SESSION_MARKER_VARIABLE } from "../../src/engine/spawn/session-marker.js";
import { attachChild, fakeChild, finish, newSession, sessionWith } from "./helpers/fake-child.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("who sees a session", () => {
  it("starts running in the foreground: addressable by id, not listed, not backgrounded", () => {
    const { session } = sessionWith();
    expect([session.state, session.visibility]).toEqual(["running", "foreground"]);
    expect([session.addressable, session.listed, session.backgrounded]).toEqual([true, false, false]);
  });

  it("once backgrounded is listed and stops keeping the host alive (EXEC-35)", () => {
    const { session, child } = sessionWith();
    session.background();
    expect([session.visibility, session.listed, session.backgrounded, session.addressable]).toEqual(["background", true, true, true]);
    expect(child.unrefed).toBe(true);
  });

  it("once removed while running is neither addressable nor listed, but still counts as a background process (PROC-11, REG-14)", () => {
    const { session } = sessionWith();
    session.background();
    session.hide();
    expect([session.visibility, session.addressable, session.listed, session.backgrounded]).toEqual(["hidden", false, false, true]);
  });

  it("cannot be hidden from the foreground, nor backgrounded again once hidden", () => {
    const { session } = sessionWith();
    session.hide();
    expect(session.visibility).toBe("foreground");
    session.background();
    session.hide();
    session.background();
    expect(session.visibility).toBe("hidden");
  });

  it("aborted in its foreground window is discarded and sent SIGTERM (EXEC-40)", () => {
    const { session, child } = sessionWith();
    session.cancelInForeground();
    expect([session.visibility, session.addressable, session.listed, session.backgrounded]).toEqual(["discarded", false, false, false]);
    expect(child.signals).toEqual(["SIGTERM"]);
  });

  it("ignores a foreground abort once backgrounded", () => {
    const { session, child } = sessionWith();
    session.background();
    session.cancelInForeground();
    expect(session.visibility).toBe("background");
    expect(child.signals).toEqual([]);
  });

  it("that never started is discarded and finished at once, with no exit code, and the spawn error passed on (RES-24)", async () => {
    const session = newSession();
    await expect(session.start(() => Promise.reject(new Error("spawn failed")))).rejects.toThrow("spawn failed");
    await session.completed;
    expect([session.state, session.visibility, session.exitCode, session.exitSignal]).toEqual(["finished", "discarded", null, null]);
  });

  it("announces its exit only when listed and not stopped on request (NOTIFY-05, NOTIFY-06)", () => {
    const listed = sessionWith().session;
    listed.background();
    finish(listed, "done\n", 0);
    expect(listed.announcesExit).toBe(true);

    const foreground = sessionWith().session;
    finish(foreground, "done\n", 0);
    expect(foreground.announcesExit).toBe(false);

    const killed = sessionWith();
    killed.session.background();
    killed.session.requestStop();
    finish(killed.session, "", null, "SIGTERM");
    expect(killed.session.announcesExit).toBe(false);
  });
});

describe("output from the backend", () => {
  it("is sanitized, appended as pending output and wakes a waiting poll", async () => {
    const { session, sink } = sessionWith();
    const waiting = session.waitForActivity(60_000);
    sink.onOutput("stdout", "a\x1b[31mred\x1b[0m\n");
    await waiting;
    expect(session.output.aggregate).toBe("ared\n");
    expect(session.takePending()).toEqual({ text: "ared\n", dropped: false });
    expect(session.output.hasPending).toBe(false);
  });

  it("copies what it keeps of a byte chunk, so a backend may lend it views of a reused read buffer", () => {
    const { session, sink } = sessionWith();
    expect(sink.copiesOutput).toBe(true);
    const readBuffer = new Uint8Array(4096);
    for (const [text, stream] of [["x".repeat(3000), "stdout"], ["caf\xc3\xa9\n", "stderr"], ["y".repeat(2000), "stdout"]] as const) {
      const chunk = readBuffer.subarray(0, text.length);
      chunk.set(Buffer.from(text, "latin1"));
      sink.onOutput(stream, chunk);
      readBuffer.fill(0x7a); // the next read lands in the same buffer
    }
    const expected = `${"x".repeat(3000)}café\n${"y".repeat(2000)}`;
    expect(session.output.aggregate).toBe(expected);
    expect(session.takePending().text).toBe(expected);
  });

  it("moves lastOutputAt and calls output listeners until they unsubscribe (EXEC-39)", () => {
    const { session, sink } = sessionWith();
    const calls: string[] = [];
    const stop = session.onOutput(() => calls.push(session.output.aggregate));
    sink.onOutput("stdout", "one");
    stop();
    sink.onOutput("stdout", "two");
    expect(calls).toEqual(["one"]);
    expect(session.lastOutputAt).toBeGreaterThanOrEqual(session.startedAt);
  });

  it("is ignored after completion", () => {
    const { session, sink } = sessionWith();
    finish(session, "kept", 0);
    sink.onOutput("stdout", "late");
    expect(session.output.aggregate).toBe("kept");
  });
});

describe("completion", () => {
  it("freezes the exit fields, releases the child and calls each completion handler once (REG-03)", async () => {
    const { session, child, sink } = sessionWith({}, { ttlMs: 1_000 });
    const seen: string[] = [];
    session.onComplete((done) => seen.push(`${done.state} ${done.exitCode}`));
    const removed = session.onComplete(() => seen.push("unsubscribed"));
    removed();
    finish(session, "out", 3);
    sink.onComplete(4, null); // a second report changes nothing
    await session.completed;
    expect(seen).toEqual(["finished 3"]);
    expect([session.exitCode, session.exitSignal, session.exitReason, child.released]).toEqual([3, null, "exit", true]);
    expect(session.expiresAt).toBe((session.endedAt ?? 0) + 1_000);
  });

  it.for([
    { code: 0, signal: null, status: "completed", reason: "exit" },
    { code: 1, signal: null, status: "completed", reason: "exit" },
    { code: EXIT_CODE_NOT_FOUND, signal: null, status: "failed", reason: "exit" },
    { code: EXIT_CODE_NOT_EXECUTABLE, signal: null, status: "failed", reason: "exit" },
    { code: null, signal: "SIGTERM", status: "failed", reason: "signal" },
    { code: null, signal: null, status: "failed", reason: "exit" },
  ] as const)("exit code $code, signal $signal: outcome $status, exitReason $reason (RES-26)", ({ code, signal, status, reason }) => {
    const { session } = sessionWith();
    finish(session, "", code, signal);
    expect([session.outcomeStatus, session.exitReason]).toEqual([status, reason]);
  });
});

describe("termination", () => {
  it("sends SIGTERM, then SIGKILL after the grace period, then settles as SIGKILL when no end was seen (KILL-08, KILL-11)", async () => {
    vi.useFakeTimers();
    const { session, child } = sessionWith();
    session.background();
    expect(session.terminate("manual-cancel")).toBe(true);
    expect(child.signals).toEqual(["SIGTERM"]);
    session.terminate("overall-timeout"); // KILL-04: no second SIGTERM, no restart of the grace
    vi.advanceTimersByTime(KILL_GRACE_MS);
    expect(child.signals).toEqual(["SIGTERM", "SIGKILL"]);
    vi.advanceTimersByTime(KILL_SETTLE_MS);
    await session.completed;
    expect([session.exitCode, session.exitSignal, session.exitReason]).toEqual([null, "SIGKILL", "manual-cancel"]);
  });

  it("kills at once when the process already exited but its output is held open (KILL-12), and reports the exit as it happened", async () => {
    vi.useFakeTimers();
    const { session, child, sink } = sessionWith({ holders: [777] });
    sink.onExit(0, null);
    session.terminate("manual-cancel");
    expect(child.signals).toEqual(["SIGKILL"]);
    vi.advanceTimersByTime(KILL_SETTLE_MS);
    await session.completed;
    expect([session.exitCode, session.exitSignal, session.outputHolders]).toEqual([0, null, [777]]);
  });

  it("cannot be terminated without a way to signal the process (KILL-05)", () => {
    const { session } = sessionWith({ signallable: false });
    expect(session.stoppable).toBe(false);
    expect(session.terminate("manual-cancel")).toBe(false);
  });

  it("requested before the process exists is carried out when it is attached", () => {
    const session = newSession();
    expect(session.terminate("manual-cancel")).toBe(true);
    const child = fakeChild();
    attachChild(session, child);
    expect(child.signals).toEqual(["SIGTERM"]);
  });

  it("requested while an executor's process without kill is being spawned settles after the grace, never hangs (dispose during start)", async () => {
    vi.useFakeTimers();
    const session = newSession();
    let spawned: (child: ReturnType<typeof fakeChild>) => void = () => {};
    const starting = session.start(() => new Promise((resolve) => (spawned = resolve)));
    expect(session.terminate("manual-cancel")).toBe(true);
    spawned(fakeChild({ signallable: false }));
    await starting;
    expect(session.state).toBe("running");
    vi.advanceTimersByTime(KILL_GRACE_MS - 1);
    expect(session.state).toBe("running");
    vi.advanceTimersByTime(1);
    await session.completed;
    expect([session.state, session.exitCode, session.exitSignal, session.exitReason]).toEqual(["finished", null, null, "manual-cancel"]);
  });

  it("is started once: a second start is refused and the first child stays", async () => {
    const { session, child } = sessionWith();
    await expect(session.start(() => fakeChild())).rejects.toThrow(`session ${session.id} was already started`);
    session.terminate("manual-cancel");
    expect(child.signals).toEqual(["SIGTERM"]);
  });

  it("on request is reported as stopped by request once the exit confirms it (KILL-06)", () => {
    const { session } = sessionWith();
    session.background();
    session.requestStop();
    finish(session, "", null, "SIGTERM");
    expect([session.confirmedStop, session.exitReason]).toEqual([true, "manual-cancel"]);
  });

  it("by the overall timeout is reported as timed out (EXEC-29)", async () => {
    vi.useFakeTimers();
    const { session, child } = sessionWith();
    session.armTimeout(1_000);
    vi.advanceTimersByTime(1_000);
    expect(child.signals).toEqual(["SIGTERM"]);
    finish(session, "", null, "SIGTERM");
    expect([session.timedOut, session.exitReason, session.confirmedStop]).toEqual([true, "overall-timeout", false]);
  });

  it("abandons a session that cannot be signalled, finishing it without an exit code", async () => {
    const { session } = sessionWith({ signallable: false });
    session.abandon();
    await session.completed;
    expect([session.state, session.exitCode, session.exitSignal]).toEqual(["finished", null, null]);
  });
});

describe("input and polls", () => {
  it("ends input once: the child's stdin is closed and no longer writable (INPUT-05)", () => {
    const { session, child } = sessionWith();
    expect(session.stdinWritable).toBe(true);
    session.endInput();
    expect([child.ended, session.stdinWritable]).toEqual([true, false]);
  });

  it("writes input to its child's stdin", async () => {
    const { session, child } = sessionWith();
    await session.writeInput("abc");
    expect(child.written).toEqual(["abc"]);
  });

  it("reads the cursor-key mode from its terminal, and is unknown before one is attached (KEYS-12)", () => {
    expect(newSession().cursorKeyMode).toBe("unknown");
    const { session, child } = sessionWith({ pty: true });
    expect(session.cursorKeyMode).toBe("unknown");
    child.mode = "application";
    expect(session.cursorKeyMode).toBe("application");
    expect(sessionWith().session.cursorKeyMode).toBe("normal");
  });

  it("sets its marker in a local command's environment over any value the call gave it", () => {
    const session = newSession();
    const env: Record<string, string> = { [SESSION_MARKER_VARIABLE]: "forged", KEEP: "1" };
    session.markEnvironment(env);
    expect(env).toEqual({ [SESSION_MARKER_VARIABLE]: session.marker, KEEP: "1" });
  });

  it("shows its output read-only: the view has no way to append, drain or freeze", () => {
    const { session } = sessionWith();
    finish(session, "out", 0);
    const view = session.output as unknown as Record<string, unknown>;
    expect(["append", "drainPending", "freeze", "takePendingDropped"].filter((name) => name in view)).toEqual([]);
    expect(() => { view["aggregate"] = "forged"; }).toThrow(TypeError);
    expect(session.output.aggregate).toBe("out");
  });
});
