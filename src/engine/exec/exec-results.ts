// Builders of every exec result (§4): foreground completed/failed, running, workdir failure, progress update.
import * as messages from "../messages.js";
import type { SessionView } from "../session.js";
import { classifyFailure, type SessionFailureKind } from "../outcome.js";
import type {
  ExecCompletedDetails, ExecFailedDetails, ExecProgressDetails, ExecRunningDetails, ToolDetails, WorkdirFailureDetails,
} from "../result-details.js";
import type { ToolResult } from "../types.js";

export function textResult<Details extends ToolDetails>(text: string, details: Details): ToolResult<Details> {
  return { content: [{ type: "text", text }], details };
}

/** RES-08, RES-09: the discard statement, then the warnings block. */
function prefix(session: SessionView, warnings: readonly string[]): string {
  const discarded = session.output.discarded ? `${messages.DISCARDED_NOTE}\n\n` : "";
  const warningBlock = warnings.length > 0 ? `${warnings.join("\n")}\n\n\n\n` : "";
  return discarded + warningBlock;
}

/** RES-10 … RES-13: the reason line of a failure that is not a timeout. */
function failureReason(kind: Exclude<SessionFailureKind, "overall-timeout">, exitSignal: string | null): string {
  switch (kind) {
    case "signal": return messages.abortedBySignal(exitSignal ?? "");
    case "aborted": return messages.ABORTED_BEFORE_EXIT;
    case "shell-command-not-found": return messages.COMMAND_NOT_FOUND;
    case "shell-not-executable": return messages.COMMAND_NOT_EXECUTABLE;
  }
}

/** RES-14: the timeout reason, with the background hint only when the process tool is available. */
function timeoutReason(timeoutSeconds: number, processToolAvailable: boolean): string {
  return `${messages.commandTimedOut(timeoutSeconds)}\n\n${messages.TIMEOUT_GUIDANCE}`
    + (processToolAvailable ? `\n\n${messages.BACKGROUND_HINT}` : "");
}

export interface ForegroundContext {
  warnings: readonly string[];
  durationMs: number;
  timeoutSeconds: number | undefined;
  processToolAvailable: boolean;
}

/** RES-03 … RES-20. */
export function foregroundResult(
  session: SessionView, ctx: ForegroundContext,
): ToolResult<ExecCompletedDetails> | ToolResult<ExecFailedDetails> {
  const output = session.output.aggregate.trim();
  const failure = classifyFailure(session);
  const common = { exitCode: session.exitCode, exitSignal: session.exitSignal, durationMs: ctx.durationMs };
  if (!failure) {
    const code = session.exitCode ?? 0;
    const body = (output || messages.NO_OUTPUT) + (code !== 0 ? `\n\n${messages.commandExitedWithCode(code)}` : "");
    // RES-05, as upstream: the `(no output)` placeholder is only rendered into the text of a clean exit.
    const aggregated = code === 0 ? output : body;
    return textResult<ExecCompletedDetails>(prefix(session, ctx.warnings) + body, {
      status: "completed", ...common, exitReason: "exit", aggregated, noOutputTimedOut: false, cwd: session.cwd,
    });
  }
  const reason = failure === "overall-timeout" ? timeoutReason(ctx.timeoutSeconds ?? 0, ctx.processToolAvailable)
    : failureReason(failure, session.exitSignal);
  const exitReason = failure === "overall-timeout" ? "overall-timeout" : failure === "signal" ? "signal" : "exit";
  return textResult<ExecFailedDetails>(prefix(session, ctx.warnings) + (output ? `${output}\n\n` : "") + reason, {
    status: "failed", ...common, failureKind: failure, exitReason, aggregated: output,
    timedOut: failure === "overall-timeout", noOutputTimedOut: false, cwd: session.cwd,
  });
}

/** RES-21 … RES-23. */
export function runningResult(session: SessionView, warnings: readonly string[]): ToolResult<ExecRunningDetails> {
  const warningPrefix = warnings.length > 0 ? `${warnings.join("\n")}\n\n` : "";
  return textResult(warningPrefix + messages.stillRunning(session.id, session.pid), {
    status: "running", sessionId: session.id, pid: session.pid ?? null, startedAt: session.startedAt, cwd: session.cwd,
    tail: session.output.tail, followUp: messages.FOLLOW_UP,
  });
}

/** EXEC-39: a progress update during the foreground window. */
export function progressUpdate(session: SessionView, warnings: readonly string[]): ToolResult<ExecProgressDetails> {
  const warningPrefix = warnings.length > 0 ? `${warnings.join("\n")}\n\n` : "";
  const tail = session.output.tail;
  return textResult(warningPrefix + (tail || session.output.aggregate || messages.NO_OUTPUT), {
    status: "running", sessionId: session.id, pid: session.pid ?? null, startedAt: session.startedAt, cwd: session.cwd,
    tail,
  });
}

/** EXEC-23: the workdir failure, returned without spawning. */
export function workdirFailure(
  requested: string, durationMs: number, text = messages.workdirUnavailable(requested),
): ToolResult<WorkdirFailureDetails> {
  return textResult(text, {
    status: "failed", exitCode: null, exitSignal: null, failureKind: "runtime-error", durationMs, aggregated: "",
    timedOut: false, cwd: requested,
  });
}
