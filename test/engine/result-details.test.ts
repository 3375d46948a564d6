// src/engine/result-details.ts: the details type of each result kind lists exactly the fields the engine returns.
// Each shape below is checked against its type at compile time (`satisfies` a record over the type's keys, so a
// field missing from the shape or not in the type fails tsc) and against a real result at run time.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import type {
  ExecCompletedDetails, ExecDetails, ExecFailedDetails, ExecProgressDetails, ExecRunningDetails, InputDetails,
  KillDetails, ListDetails, ListFinishedEntry, ListRunningEntry, LogFinishedDetails, LogRunningDetails,
  PollExitedDetails, PollRunningDetails, ProcessDetails, ProcessFailureDetails, RemovedDetails, ToolResult,
  WorkdirFailureDetails,
} from "../../src/engine/index.js";
import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

/** Each field of a kind: true when every result has it, false when it may be absent. */
type Shape<Details> = Record<keyof Details, boolean>;

function expectShape(details: object, shape: Record<string, boolean>): void {
  const fields = Object.keys(details);
  expect(fields.filter((field) => !(field in shape))).toEqual([]);
  expect(Object.keys(shape).filter((field) => shape[field] && !fields.includes(field))).toEqual([]);
}

const execCompleted = {
  status: true, exitCode: true, exitSignal: true, durationMs: true, exitReason: true, aggregated: true,
  noOutputTimedOut: true, cwd: true,
} satisfies Shape<ExecCompletedDetails>;
const execFailed = {
  status: true, exitCode: true, exitSignal: true, durationMs: true, failureKind: true, exitReason: true, aggregated: true,
  timedOut: true, noOutputTimedOut: true, cwd: true,
} satisfies Shape<ExecFailedDetails>;
const workdirFailure = {
  status: true, exitCode: true, exitSignal: true, failureKind: true, durationMs: true, aggregated: true, timedOut: true,
  cwd: true,
} satisfies Shape<WorkdirFailureDetails>;
const execRunning = {
  status: true, sessionId: true, pid: true, startedAt: true, cwd: true, tail: true, followUp: true,
} satisfies Shape<ExecRunningDetails>;
const execProgress = {
  status: true, sessionId: true, pid: true, startedAt: true, cwd: true, tail: true,
} satisfies Shape<ExecProgressDetails>;
const processFailure = { status: true, error: true, hint: false } satisfies Shape<ProcessFailureDetails>;
const inputWait = { stdinWritable: true, waitingForInput: true, idleMs: true, lastOutputAt: true };
const exitFields = {
  exitCode: true, exitSignal: true, exitReason: true, timedOut: true, noOutputTimedOut: true, outputHeldByPids: false,
};
const listEntry = {
  sessionId: true, status: true, startedAt: true, runtimeMs: true, cwd: true, command: true, name: true, tail: true,
  truncated: true, watches: false,
};
const listRunning = { ...listEntry, pid: true, ...inputWait } satisfies Shape<ListRunningEntry>;
const listFinished = {
  ...listEntry, endedAt: true, exitCode: true, exitSignal: true, exitReason: true, timedOut: true, noOutputTimedOut: true,
} satisfies Shape<ListFinishedEntry>;
const list = { status: true, sessions: true } satisfies Shape<ListDetails>;
const pollRunning = {
  status: true, sessionId: true, aggregated: true, name: true, ...inputWait, retryInMs: true, watches: false,
} satisfies Shape<PollRunningDetails>;
const pollExited = {
  status: true, sessionId: true, ...exitFields, name: true, aggregated: true, watches: false,
} satisfies Shape<PollExitedDetails>;
const logTotals = { total: true, totalLines: true, totalChars: true, truncated: true };
const logRunning = {
  status: true, sessionId: true, name: true, ...inputWait, output: true, ...logTotals,
} satisfies Shape<LogRunningDetails>;
const logFinished = {
  status: true, sessionId: true, ...exitFields, name: true, output: true, ...logTotals,
} satisfies Shape<LogFinishedDetails>;
const input = { status: true, sessionId: true, name: true } satisfies Shape<InputDetails>;
const kill = { status: true, name: true } satisfies Shape<KillDetails>;
const removed = { status: true } satisfies Shape<RemovedDetails>;

describe("exec details", () => {
  it("a completed, a failed, a workdir-failure and a running result each have their kind's fields", async () => {
    const engine = newEngine();
    expectShape((await engine.exec({ command: "echo hi" }, ctx)).details, execCompleted);
    expectShape((await engine.exec({ command: "exit 127" }, ctx)).details, execFailed);
    expectShape((await engine.exec({ command: "true", workdir: "missing" }, ctx)).details, workdirFailure);
    const running = await engine.exec({ command: "sleep 30", background: true }, ctx);
    expectShape(running.details, execRunning);
    await engine.process({ action: "kill", sessionId: sessionIdOf(running) }, ctx);
  });

  it("a progress update has the progress fields", async () => {
    const updates: ToolResult<ExecProgressDetails>[] = [];
    await newEngine().exec({ command: "echo one" }, { ...ctx, onUpdate: (update) => updates.push(update) });
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expectShape(update.details, execProgress);
  });
});

describe("process details", () => {
  it("every action's result has its kind's fields, running and finished", async () => {
    const engine = newEngine();
    expectShape((await engine.process({ action: "bogus" }, ctx)).details, processFailure);
    const id = sessionIdOf(await engine.exec({ command: "cat", pty: true, background: true }, ctx));
    const runningList = await engine.process({ action: "list" }, ctx);
    expectShape(runningList.details, list);
    for (const entry of runningList.details.sessions ?? []) expectShape(entry, listRunning);
    expectShape((await engine.process({ action: "poll", sessionId: id }, ctx)).details, pollRunning);
    expectShape((await engine.process({ action: "log", sessionId: id }, ctx)).details, logRunning);
    for (const call of [{ action: "write", data: "x\n" }, { action: "send-keys", keys: ["Enter"] }, { action: "submit" },
      { action: "paste", text: "y" }]) {
      expectShape((await engine.process({ ...call, sessionId: id }, ctx)).details, input);
    }
    expectShape((await engine.process({ action: "kill", sessionId: id }, ctx)).details, kill);
    expectShape((await pollUntilDone(engine, id)).details, pollExited);
    expectShape((await engine.process({ action: "log", sessionId: id }, ctx)).details, logFinished);
    const finishedList = await engine.process({ action: "list" }, ctx);
    for (const entry of finishedList.details.sessions ?? []) expectShape(entry, listFinished);
    expectShape((await engine.process({ action: "clear", sessionId: id }, ctx)).details, removed);
  }, 30_000);
});

describe("the details types", () => {
  it("narrow on status to the fields of the kind", async () => {
    const result = await newEngine().exec({ command: "echo hi" }, ctx);
    expectTypeOf(result.details).toEqualTypeOf<ExecDetails>();
    // Any field can be read on the union; it is undefined where a kind has none.
    expectTypeOf(result.details.sessionId).toEqualTypeOf<string | undefined>();
    if (result.details.status === "running") expectTypeOf(result.details.sessionId).toEqualTypeOf<string>();
    if (result.details.status !== "completed") throw new Error(`expected a completed result, got ${result.details.status}`);
    expectTypeOf(result.details.exitReason).toEqualTypeOf<"exit">();
    expect(result.details).toEqual({
      status: "completed", exitCode: 0, exitSignal: null, durationMs: result.details.durationMs, exitReason: "exit",
      aggregated: "hi", noOutputTimedOut: false, cwd: result.details.cwd,
    } satisfies ExecCompletedDetails);
  });

  it("type a process failure and a list by their fields", async () => {
    const engine = newEngine();
    const failure = await engine.process({ action: "poll", sessionId: "nope" }, ctx);
    expectTypeOf(failure.details).toEqualTypeOf<ProcessDetails>();
    expect(failure.details).toEqual({ status: "failed", error: "No session found for nope" } satisfies ProcessFailureDetails);
    const empty = await engine.process({ action: "list" }, ctx);
    expectTypeOf(empty.details.sessions).toEqualTypeOf<ListDetails["sessions"] | undefined>();
    expect(empty.details).toEqual({ status: "completed", sessions: [] } satisfies ListDetails);
  });
});
