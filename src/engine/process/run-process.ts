// Dispatches one process call: normalized arguments, then scoped lookups and guards in SPEC order (§7, §8).
import { abortError } from "../errors.js";
import * as messages from "../messages.js";
import type { Session } from "../session.js";
import type { KillDetails, ProcessDetails, ProcessFailureDetails, RemovedDetails } from "../result-details.js";
import type { CallContext, ProcessParams, ToolResult } from "../types.js";
import type { EngineContext } from "../engine-context.js";
import { sendInput } from "./input-actions.js";
import { listSessions } from "./list-action.js";
import { readLog } from "./log-action.js";
import { normalizeProcessParams } from "./normalize-process.js";
import { pollSession, resetPollBackoff } from "./poll-action.js";
import { failure, nameField, result } from "./session-view.js";

export async function runProcess(params: ProcessParams, ctx: CallContext, engine: EngineContext): Promise<ToolResult<ProcessDetails>> {
  engine.assertNotDisposed();
  const checked = normalizeProcessParams(params);
  if (!checked.ok) return failure(checked.text); // PROC-02, PROC-03
  const { call } = checked;
  if (call.action === "list") return listSessions(engine, ctx.scopeKey);
  const id = call.sessionId;
  const scope = ctx.scopeKey;
  switch (call.action) {
    case "poll":
    case "log": {
      if (call.action === "poll" && ctx.signal?.aborted) throw abortError();
      const running = engine.registry.running(scope, id);
      if (running && !running.backgrounded) return failure(messages.notBackgrounded(id)); // PROC-07
      const session = running ?? engine.registry.finished(scope, id);
      if (!session) return failure(messages.noSession(id)); // POLL-02, LOG-02
      return call.action === "poll" ? pollSession(session, call, ctx, engine) : readLog(session, call, engine);
    }
    case "write":
    case "send-keys":
    case "submit":
    case "paste": {
      const guarded = guardRunning(engine, scope, id, messages.noActiveSession(id));
      return "text" in guarded ? guarded.text : sendInput(guarded.session, call);
    }
    case "kill": {
      const guarded = guardRunning(engine, scope, id, messages.noActiveSession(id), messages.unableToTerminate(id));
      if ("text" in guarded) return guarded.text;
      const { session } = guarded;
      session.requestStop();
      resetPollBackoff(session);
      return result<KillDetails>(messages.terminationRequested(id), { status: "completed", ...nameField(session) }); // KILL-03
    }
    case "clear":
      if (!engine.registry.finished(scope, id)) return failure(messages.noFinishedSession(id)); // PROC-10
      engine.registry.deleteFinished(id);
      return result(messages.cleared(id), { status: "completed" });
    case "remove":
      return removeSession(engine, scope, id);
  }
}

type Guarded = { session: Session } | { text: ToolResult<ProcessFailureDetails> };

/**
 * KILL-02, INPUT-04: running in this scope, backgrounded, and (for kill/remove) signallable. A session is never seen
 * finalizing here: it settles synchronously (Session's single settle path).
 */
function guardRunning(
  engine: EngineContext, scope: string, id: string, notFound: string, noHandle?: string,
): Guarded {
  const session = engine.registry.running(scope, id);
  if (!session) return { text: failure(notFound) };
  if (!session.backgrounded) return { text: failure(messages.notBackgrounded(id)) };
  if (noHandle !== undefined && !session.stoppable) return { text: failure(noHandle) }; // KILL-05
  return { session };
}

/** PROC-11 … PROC-14: hide and terminate a running session, or delete a finished record. */
function removeSession(
  engine: EngineContext, scope: string, id: string,
): ToolResult<RemovedDetails> | ToolResult<ProcessFailureDetails> {
  if (engine.registry.running(scope, id)) {
    const guarded = guardRunning(engine, scope, id, messages.noSession(id), messages.unableToRemove(id));
    if ("text" in guarded) return guarded.text;
    const { session } = guarded;
    session.hide(); // POLL-12: a waiting poll returns at once
    session.requestStop();
    resetPollBackoff(session);
    return result(messages.removedRunning(id), { status: "completed" });
  }
  if (!engine.registry.finished(scope, id)) return failure(messages.noSession(id));
  engine.registry.deleteFinished(id);
  return result(messages.removedFinished(id), { status: "completed" });
}
