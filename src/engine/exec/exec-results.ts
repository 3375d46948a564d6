// Builders of every exec result (§4): foreground completed/failed, running, workdir failure, progress update.
import * as messages from "../messages.js";
import type { Session } from "../session.js";
import { EXIT_CODE_NOT_EXECUTABLE, EXIT_CODE_NOT_FOUND } from "../settings.js";
import type { ToolResult } from "../types.js";

type FailureKind = "shell-command-not-found" | "shell-not-executable" | "overall-timeout" | "no-output-timeout"
  | "signal" | "aborted" | "runtime-error";

export function textResult(text: string, details: ToolResult["details"]): ToolResult {
  return { content: [{ type: "text", text }], details };
}

/** RES-08, RES-09: the discard statement, then the warnings block. */
function prefix(session: Session, warnings: readonly string[]): string {
  const discarded = session.output.discarded ? `${messages.DISCARDED_NOTE}\n\n` : "";
  const warningBlock = warnings.length > 0 ? `${warnings.join("\n")}\n\n\n\n` : "";
  return discarded + warningBlock;
}

function classifyFailure(session: Session): { kind: FailureKind; reason: string } | undefined {
  const { exitCode, exitSignal, exitReason } = session;
  if (exitReason === "overall-timeout") return { kind: "overall-timeout", reason: "" };
  if (exitReason === "runtime-error") return { kind: "runtime-error", reason: "" };
  if (exitSignal) return { kind: "signal", reason: messages.abortedBySignal(exitSignal) };
  if (exitCode === null) return { kind: "aborted", reason: messages.ABORTED_BEFORE_EXIT };
  if (exitCode === EXIT_CODE_NOT_FOUND) return { kind: "shell-command-not-found", reason: messages.COMMAND_NOT_FOUND };
  if (exitCode === EXIT_CODE_NOT_EXECUTABLE) return { kind: "shell-not-executable", reason: messages.COMMAND_NOT_EXECUTABLE };
  return undefined;
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
  runtimeError?: string;
}

/** RES-03 … RES-20. */
export function foregroundResult(session: Session, ctx: ForegroundContext): ToolResult {
  const output = session.output.aggregate.trim();
  const failure = classifyFailure(session);
  const common = { exitCode: session.exitCode, exitSignal: session.exitSignal, durationMs: ctx.durationMs };
  if (!failure) {
    const code = session.exitCode ?? 0;
    const body = (output || messages.NO_OUTPUT) + (code !== 0 ? `\n\n${messages.commandExitedWithCode(code)}` : "");
    // RES-05, as upstream: the `(no output)` placeholder is only rendered into the text of a clean exit.
    const aggregated = code === 0 ? output : body;
    return textResult(prefix(session, ctx.warnings) + body, {
      status: "completed", ...common, exitReason: "exit", aggregated, noOutputTimedOut: false, cwd: session.cwd,
    });
  }
  const reason = failure.kind === "overall-timeout" ? timeoutReason(ctx.timeoutSeconds ?? 0, ctx.processToolAvailable)
    : failure.kind === "runtime-error" ? ctx.runtimeError ?? "" : failure.reason;
  const exitReason = failure.kind === "overall-timeout" ? "overall-timeout"
    : failure.kind === "signal" ? "signal" : failure.kind === "runtime-error" ? "runtime-error" : "exit";
  return textResult(prefix(session, ctx.warnings) + (output ? `${output}\n\n` : "") + reason, {
    status: "failed", ...common, failureKind: failure.kind, exitReason, aggregated: output,
    timedOut: failure.kind === "overall-timeout", noOutputTimedOut: false, cwd: session.cwd,
  });
}

/** RES-21 … RES-23. */
export function runningResult(session: Session, warnings: readonly string[]): ToolResult {
  const warningPrefix = warnings.length > 0 ? `${warnings.join("\n")}\n\n` : "";
  return textResult(warningPrefix + messages.stillRunning(session.id, session.pid), {
    status: "running", sessionId: session.id, pid: session.pid ?? null, startedAt: session.startedAt, cwd: session.cwd,
    tail: session.output.tail, followUp: messages.FOLLOW_UP,
  });
}

/** EXEC-39: a progress update during the foreground window. */
export function progressUpdate(session: Session, warnings: readonly string[]): ToolResult {
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
): ToolResult {
  return textResult(text, {
    status: "failed", exitCode: null, exitSignal: null, failureKind: "runtime-error", durationMs, aggregated: "",
    timedOut: false, cwd: requested,
  });
}
