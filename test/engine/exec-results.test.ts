// src/engine/exec/exec-results.ts: the text and details of every exec result (RES-03 … RES-23, EXEC-23, EXEC-39).
import { describe, expect, it } from "vitest";
import { foregroundResult, progressUpdate, runningResult, workdirFailure } from "../../src/engine/exec/exec-results.js";
import * as messages from "../../src/engine/messages.js";
import { EXIT_CODE_NOT_EXECUTABLE, EXIT_CODE_NOT_FOUND, TAIL_CHARS } from "../../src/engine/settings.js";
import { finishedSession, outputOf } from "./helpers/session-stand-in.js";

const ctx = { warnings: [] as string[], durationMs: 250, timeoutSeconds: 1800, processToolAvailable: true };
const textOf = (result: { content: [{ text: string }] }): string => result.content[0].text;

describe("foregroundResult: completed runs", () => {
  it("returns the trimmed output and the completed details of exit code 0 (RES-04, RES-05)", () => {
    const result = foregroundResult(finishedSession({ output: outputOf("\n\n  padded  \n\n") }), ctx);
    expect(textOf(result)).toBe("padded");
    expect(result.details).toEqual({
      status: "completed", exitCode: 0, exitSignal: null, durationMs: 250, exitReason: "exit", aggregated: "padded",
      noOutputTimedOut: false, cwd: "/work/dir",
    });
  });

  it("says (no output) for a silent success (RES-05)", () => {
    expect(textOf(foregroundResult(finishedSession(), ctx))).toBe(messages.NO_OUTPUT);
  });

  it("keeps a non-zero exit other than 126 and 127 completed and appends the exit code line (RES-06)", () => {
    const result = foregroundResult(finishedSession({ exitCode: 3, output: outputOf("nope\n") }), ctx);
    expect(textOf(result)).toBe(`nope\n\n${messages.commandExitedWithCode(3)}`);
    expect(result.details).toMatchObject({ status: "completed", exitCode: 3, aggregated: textOf(result) });
    expect(textOf(foregroundResult(finishedSession({ exitCode: 3 }), ctx)))
      .toBe(`${messages.NO_OUTPUT}\n\n${messages.commandExitedWithCode(3)}`);
  });

  it("puts the discard statement first, then the warnings block, then the body (RES-08, RES-09)", () => {
    const output = outputOf("x".repeat(1_500) + "kept", 1_000);
    const result = foregroundResult(finishedSession({ output }), { ...ctx, warnings: ["W1", "W2"] });
    expect(textOf(result)).toBe(`${messages.DISCARDED_NOTE}\n\nW1\nW2\n\n\n\n${output.aggregate.trim()}`);
  });
});

describe("foregroundResult: failed runs", () => {
  it.each([
    [EXIT_CODE_NOT_FOUND, "shell-command-not-found", messages.COMMAND_NOT_FOUND],
    [EXIT_CODE_NOT_EXECUTABLE, "shell-not-executable", messages.COMMAND_NOT_EXECUTABLE],
  ])("classifies exit code %i as %s with its reason (RES-11, RES-12)", (code, failureKind, reason) => {
    const result = foregroundResult(finishedSession({ exitCode: code, output: outputOf("sh: nope: not found\n") }), ctx);
    expect(textOf(result)).toBe(`sh: nope: not found\n\n${reason}`);
    expect(result.details).toEqual({
      status: "failed", exitCode: code, exitSignal: null, durationMs: 250, failureKind, exitReason: "exit",
      aggregated: "sh: nope: not found", timedOut: false, noOutputTimedOut: false, cwd: "/work/dir",
    });
  });

  it("reports a signal death with the signal in the reason (RES-17)", () => {
    const result = foregroundResult(finishedSession({ exitCode: null, exitSignal: "SIGKILL", exitReason: "signal" }), ctx);
    expect(textOf(result)).toBe(messages.abortedBySignal("SIGKILL"));
    expect(result.details).toMatchObject({ failureKind: "signal", exitReason: "signal", exitCode: null, exitSignal: "SIGKILL" });
  });

  it("reports neither code nor signal as aborted before the exit code was captured (RES-18)", () => {
    const result = foregroundResult(finishedSession({ exitCode: null }), ctx);
    expect(textOf(result)).toBe(messages.ABORTED_BEFORE_EXIT);
    expect(result.details).toMatchObject({ status: "failed", failureKind: "aborted" });
  });

  it("gives a timeout its seconds, the guidance and the background hint (RES-14 … RES-16)", () => {
    const session = finishedSession({ exitCode: null, exitSignal: "SIGTERM", exitReason: "overall-timeout" });
    const result = foregroundResult(session, { ...ctx, timeoutSeconds: 0.5 });
    expect(textOf(result)).toBe(`${messages.commandTimedOut(0.5)}\n\n${messages.TIMEOUT_GUIDANCE}\n\n${messages.BACKGROUND_HINT}`);
    expect(textOf(result).startsWith("Command timed out after 0.5 seconds.")).toBe(true);
    expect(result.details).toMatchObject({
      status: "failed", failureKind: "overall-timeout", exitReason: "overall-timeout", timedOut: true, exitCode: null,
      exitSignal: "SIGTERM",
    });
  });

  it("leaves the background hint out of a timeout without the process tool (RES-14, EXEC-44)", () => {
    const session = finishedSession({ exitCode: null, exitSignal: "SIGTERM", exitReason: "overall-timeout" });
    const result = foregroundResult(session, { ...ctx, timeoutSeconds: 1, processToolAvailable: false });
    expect(textOf(result)).toBe(`${messages.commandTimedOut(1)}\n\n${messages.TIMEOUT_GUIDANCE}`);
  });
});

describe("runningResult and progressUpdate", () => {
  it("states the session and pid and carries the running details with the untrimmed tail (RES-21 … RES-23)", () => {
    const session = finishedSession({ output: outputOf("building\n") });
    const result = runningResult(session, []);
    expect(textOf(result)).toBe(messages.stillRunning("calm-brook", 4242));
    expect(result.details).toEqual({
      status: "running", sessionId: "calm-brook", pid: 4242, startedAt: 1_000, cwd: "/work/dir", tail: "building\n",
      followUp: messages.FOLLOW_UP,
    });
  });

  it("shows pid n/a when the pid is unknown and prefixes warnings with two line feeds (RES-22)", () => {
    const result = runningResult(finishedSession({ pid: undefined }), ["W"]);
    expect(textOf(result)).toBe(`W\n\n${messages.stillRunning("calm-brook", undefined)}`);
    expect(textOf(result)).toContain("pid n/a");
    expect(result.details["pid"]).toBeNull();
  });

  it("keeps only the last TAIL_CHARS characters as the tail (RES-23)", () => {
    const long = "a".repeat(TAIL_CHARS) + "END";
    expect(runningResult(finishedSession({ output: outputOf(long) }), []).details["tail"]).toBe(long.slice(-TAIL_CHARS));
  });

  it("sends the tail, or (no output), with the running details and no followUp (EXEC-39)", () => {
    const update = progressUpdate(finishedSession({ output: outputOf("one\n") }), ["W"]);
    expect(textOf(update)).toBe("W\n\none\n");
    expect(update.details).toEqual({
      status: "running", sessionId: "calm-brook", pid: 4242, startedAt: 1_000, cwd: "/work/dir", tail: "one\n",
    });
    expect(textOf(progressUpdate(finishedSession(), []))).toBe(messages.NO_OUTPUT);
  });
});

describe("workdirFailure (EXEC-23)", () => {
  it("returns the workdir text and the failed details with the value as given", () => {
    const result = workdirFailure("~/missing", 3);
    expect(textOf(result)).toBe(messages.workdirUnavailable("~/missing"));
    expect(result.details).toEqual({
      status: "failed", exitCode: null, exitSignal: null, failureKind: "runtime-error", durationMs: 3, aggregated: "",
      timedOut: false, cwd: "~/missing",
    });
  });

  it("uses a given text instead, such as the NUL-byte refusal of a workdir (EXEC-28)", () => {
    const text = messages.nulByteIn("workdir", 2);
    expect(textOf(workdirFailure("ab\u0000", 0, text))).toBe(text);
  });
});
