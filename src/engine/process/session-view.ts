// Shared views of a session used by several process actions: failures, input-wait fields, notes, exit lines.
import * as messages from "../messages.js";
import { formatCompactDuration } from "../duration.js";
import type { SessionView } from "../session.js";
import type { ExitFields, ProcessFailureDetails, ToolDetails } from "../result-details.js";
import type { ToolResult } from "../types.js";

/** PROC-04: every process failure has this shape. */
export function failure(text: string, hint?: string): ToolResult<ProcessFailureDetails> {
  return { content: [{ type: "text", text }], details: { status: "failed", error: text, ...(hint !== undefined ? { hint } : {}) } };
}

export function result<Details extends ToolDetails>(text: string, details: Details): ToolResult<Details> {
  return { content: [{ type: "text", text }], details };
}

/** `name` only when one was derived (LIST-08). */
export function nameField(session: SessionView): { name?: string } {
  return session.name === undefined ? {} : { name: session.name };
}

export interface InputWaitView {
  stdinWritable: boolean;
  waitingForInput: boolean;
  idleMs: number;
  lastOutputAt: number;
}

/** WAIT-02, WAIT-03: the fields of running list, poll and log results. */
export function inputWaitView(session: SessionView, thresholdMs: number, now = Date.now()): InputWaitView {
  const idleMs = session.idleMs(now);
  const stdinWritable = session.stdinWritable;
  return { stdinWritable, waitingForInput: stdinWritable && idleMs >= thresholdMs, idleMs, lastOutputAt: session.lastOutputAt };
}

/** WAIT-05. */
export function inputWaitHint(view: InputWaitView): string {
  return messages.inputWaitHint(formatCompactDuration(view.idleMs));
}

export function discardedNote(session: SessionView): string {
  return session.output.discarded ? `${messages.DISCARDED_NOTE}\n\n` : "";
}

export function exitLabelOf(session: SessionView): string {
  return messages.exitLabel(session.exitCode, session.exitSignal);
}

/** POLL-16: a confirmed stop is reported as completed. */
export function reportedStatus(session: SessionView): "completed" | "failed" {
  return session.confirmedStop ? "completed" : session.outcomeStatus;
}

/** The exit fields of terminal poll and finished log results. */
export function exitFields(session: SessionView): ExitFields {
  return {
    exitCode: session.exitCode, exitSignal: session.exitSignal, exitReason: session.exitReason,
    timedOut: session.timedOut, noOutputTimedOut: false,
    ...(session.outputHolders.length > 0 ? { outputHeldByPids: [...session.outputHolders] } : {}),
  };
}

export const guidanceSuffix = (session: SessionView): string =>
  session.timedOut ? `\n\n${messages.TIMEOUT_GUIDANCE}` : "";
