// src/engine/process/session-view.ts: the views of a session that several process actions share (PROC-04, WAIT-02 …
// WAIT-05, RES-25, POLL-15, POLL-16).
import { describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import {
  discardedNote, exitFields, exitLabelOf, failure, guidanceSuffix, inputWaitHint, inputWaitView, nameField, reportedStatus,
  result,
} from "../../src/engine/process/session-view.js";
import type { SessionView } from "../../src/engine/session.js";
import { finishedSession, outputOf } from "./helpers/session-stand-in.js";

/** A finished stand-in with `fields` laid over it as they are, derived fields included. */
function session(fields: Partial<SessionView> = {}): SessionView {
  return { ...finishedSession(), ...fields };
}

describe("failure and result", () => {
  it("shapes every process failure as the text plus details {status: failed, error: text} (PROC-04)", () => {
    expect(failure("No session found for x")).toEqual({
      content: [{ type: "text", text: "No session found for x" }], details: { status: "failed", error: "No session found for x" },
    });
  });

  it("wraps a text and its details as a result (RES-01)", () => {
    expect(result("ok", { status: "completed" })).toEqual({ content: [{ type: "text", text: "ok" }], details: { status: "completed" } });
  });
});

describe("nameField", () => {
  it("gives name only when one was derived (LIST-08)", () => {
    expect(nameField(session({ name: "npm" }))).toEqual({ name: "npm" });
    expect(nameField(session())).toEqual({});
  });
});

describe("inputWaitView (WAIT-02, WAIT-03)", () => {
  it.each([
    [true, 999, false], [true, 1_000, true], [true, 5_000, true], [false, 5_000, false],
  ])("with stdinWritable %s and idleMs %i under a 1000 ms threshold, waitingForInput is %s", (writable, idle, waiting) => {
    const view = inputWaitView(session({ stdinWritable: writable, idleMs: () => idle }), 1_000);
    expect(view).toEqual({ stdinWritable: writable, waitingForInput: waiting, idleMs: idle, lastOutputAt: 1_000 });
  });

  it("measures idleness at the given time", () => {
    const seen: number[] = [];
    const idleMs = (now = Date.now()): number => {
      seen.push(now);
      return 0;
    };
    inputWaitView(session({ idleMs }), 1_000, 123_456);
    expect(seen).toEqual([123_456]);
  });
});

describe("inputWaitHint (WAIT-05)", () => {
  it.each([[20_000, "20s"], [1_502, "2s"]])("states %i ms of silence as %s", (idleMs, duration) => {
    const view = { stdinWritable: true, waitingForInput: true, idleMs, lastOutputAt: 0 };
    expect(inputWaitHint(view)).toBe(messages.inputWaitHint(duration));
  });
});

describe("notes, labels and status", () => {
  it("gives the discard statement and a blank line only when output was discarded (RES-08, OUT-16)", () => {
    expect(discardedNote(session({ output: outputOf("x".repeat(1_500), 1_000) }))).toBe(`${messages.DISCARDED_NOTE}\n\n`);
    expect(discardedNote(session({ output: outputOf("short") }))).toBe("");
  });

  it.each([
    [0, null, "code 0"], [null, "SIGTERM", "signal SIGTERM"], [143, "SIGTERM", "signal SIGTERM"], [null, null, "unknown exit code"],
  ])("labels exit code %s with signal %s as %s (RES-25)", (code, signal, label) => {
    expect(exitLabelOf(session({ exitCode: code, exitSignal: signal }))).toBe(label);
  });

  it("reports a confirmed stop as completed and otherwise the outcome status (POLL-16)", () => {
    expect(reportedStatus(session({ confirmedStop: true, outcomeStatus: "failed" }))).toBe("completed");
    expect(reportedStatus(session({ outcomeStatus: "failed" }))).toBe("failed");
  });

  it("adds the timeout guidance only after a timeout (POLL-15)", () => {
    expect(guidanceSuffix(session({ timedOut: true }))).toBe(`\n\n${messages.TIMEOUT_GUIDANCE}`);
    expect(guidanceSuffix(session())).toBe("");
  });
});

describe("exitFields (POLL-16, LOG-11)", () => {
  it("gives the exit fields with timedOut and noOutputTimedOut from the exit reason", () => {
    expect(exitFields(session({ exitCode: null, exitSignal: "SIGTERM", exitReason: "overall-timeout", timedOut: true }))).toEqual({
      exitCode: null, exitSignal: "SIGTERM", exitReason: "overall-timeout", timedOut: true, noOutputTimedOut: false,
    });
  });

  it("names the processes that still held the output, only when there are any", () => {
    expect(exitFields(session({ outputHolders: [41, 42] }))).toMatchObject({ outputHeldByPids: [41, 42] });
    expect(exitFields(session())).not.toHaveProperty("outputHeldByPids");
  });
});
