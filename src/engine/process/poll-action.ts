// `process poll` (POLL-01 … POLL-21): drains pending output, waits event-driven, reports the exit once.
import { abortError } from "../errors.js";
import * as messages from "../messages.js";
import type { Session } from "../session.js";
import { POLL_BACKOFF_MS, POLL_RETRY_WITH_OUTPUT_MS } from "../settings.js";
import type { PollExitedDetails, PollRunningDetails, ProcessFailureDetails } from "../result-details.js";
import type { CallContext, ToolResult } from "../types.js";
import type { PollCall } from "./normalize-process.js";
import type { EngineContext } from "../engine-context.js";
import {
  discardedNote, exitFields, exitLabelOf, failure, guidanceSuffix, inputWaitHint, inputWaitView, nameField,
  reportedStatus, result,
} from "./session-view.js";

/**
 * POLL-06: 5000, 10000, 30000, 60000 for back-off steps 1, 2, 3, ≥ 4 (0 = no poll since the last reset, 5000).
 * The step counts the running polls since the last reset; as upstream 2026.9.6, a poll with new output sets it
 * back to 1, so it reports 5000 and the next empty poll 10000.
 */
export function retryInMs(step: number): number {
  if (step === 0) return POLL_RETRY_WITH_OUTPUT_MS;
  return POLL_BACKOFF_MS[Math.min(step, POLL_BACKOFF_MS.length) - 1] ?? POLL_RETRY_WITH_OUTPUT_MS;
}

/** The back-off step of each session's last running poll; none before the first one and after a stop request. */
const pollSteps = new WeakMap<Session, number>();

/**
 * A running poll was answered: returns its back-off step (POLL-06). As upstream 2026.9.6, a poll with new output
 * is step 1 again, and each empty poll after it one step more.
 */
export function countRunningPoll(session: Session, hadOutput: boolean): number {
  const step = hadOutput ? 1 : (pollSteps.get(session) ?? 0) + 1;
  pollSteps.set(session, step);
  return step;
}

/** A kill or remove request starts the back-off over (POLL-06). */
export function resetPollBackoff(session: Session): void {
  pollSteps.delete(session);
}

const hasNews = (session: Session): boolean =>
  session.state !== "running" || session.output.hasPending || session.output.pendingOutputDropped || !session.addressable;

export async function pollSession(
  session: Session, call: Pick<PollCall, "timeoutMs">, ctx: CallContext, engine: EngineContext,
): Promise<ToolResult<PollRunningDetails> | ToolResult<PollExitedDetails> | ToolResult<ProcessFailureDetails>> {
  if (ctx.signal?.aborted) throw abortError(); // POLL-11
  const deadline = Date.now() + call.timeoutMs;
  while (!hasNews(session) && Date.now() < deadline) {
    await session.waitForActivity(deadline - Date.now(), ctx.signal);
    if (ctx.signal?.aborted) throw abortError();
  }
  if (!session.addressable) return failure(messages.noSession(session.id)); // POLL-12
  return session.state === "finished" ? terminalPoll(session, engine) : runningPoll(session, engine);
}

function runningPoll(session: Session, engine: EngineContext): ToolResult<PollRunningDetails> {
  const pending = session.takePending();
  const dropped = pending.dropped;
  const drained = pending.text.trim();
  const step = countRunningPoll(session, drained !== "");
  const wait = inputWaitView(session, engine.settings.inputWaitIdleMs);
  const text = discardedNote(session) + (dropped ? `${messages.OMITTED_NOTE}\n\n` : "")
    + (drained || messages.NO_NEW_OUTPUT)
    + (wait.waitingForInput ? inputWaitHint(wait) : `\n\n${messages.PROCESS_STILL_RUNNING}`);
  return result(text, {
    status: "running", sessionId: session.id, aggregated: session.output.aggregate, ...nameField(session), ...wait,
    retryInMs: retryInMs(step), ...engine.watches.watchesField(session),
  });
}

function terminalPoll(session: Session, engine: EngineContext): ToolResult<PollExitedDetails> {
  const pending = session.takePending();
  const dropped = pending.dropped;
  const unread = pending.text.trim();
  engine.notifier.acknowledge(session); // NOTIFY-13
  const omitted = !dropped ? "" : engine.registry.isRetained(session) ? messages.OMITTED_NOTE : messages.OMITTED_GONE_NOTE;
  const label = exitLabelOf(session);
  const exitLine = session.confirmedStop ? messages.processStoppedByRequest(label) : messages.processExitedWith(label);
  const text = discardedNote(session) + (omitted ? `${omitted}\n\n` : "") + (unread || messages.NO_NEW_OUTPUT)
    + `\n\n${exitLine}` + guidanceSuffix(session);
  return result(text, {
    status: reportedStatus(session), sessionId: session.id, ...exitFields(session),
    ...nameField(session), aggregated: session.output.aggregate, ...engine.watches.watchesField(session),
  });
}
