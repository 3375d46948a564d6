// A retried exec that joined the same running job (issue 34, dedupeWindowMs): it waits on that job as its own call
// would have waited on a new one, and its text says that it is the same job, started N s ago.
import { abortError } from "../errors.js";
import * as messages from "../messages.js";
import type { Session } from "../session.js";
import { MS_PER_SECOND, TIMER_MAX_MS } from "../settings.js";
import type { ExecDetails } from "../result-details.js";
import type { CallContext, ToolResult } from "../types.js";
import { foregroundResult, runningResult } from "./exec-results.js";
import type { NormalizedExec } from "./normalize-exec.js";

/**
 * `background: true` returns the job's running result at once. Otherwise the call waits for the job's completion
 * (its completed or failed result), or, after its own yield window, for the job to be backgrounded by the call that
 * started it (its running result); in synchronous mode it waits for completion. An abort ends only this wait: the job
 * belongs to the call that started it.
 */
export async function joinSameJob(session: Session, call: NormalizedExec, ctx: CallContext): Promise<ToolResult<ExecDetails>> {
  const processToolAvailable = ctx.processToolAvailable !== false;
  const joinedAt = Date.now();
  const deadline = processToolAvailable && !call.background ? joinedAt + call.yieldMs : processToolAvailable ? joinedAt : Infinity;
  for (;;) {
    if (ctx.signal?.aborted) throw abortError();
    if (session.state === "finished") break;
    const now = Date.now();
    if (session.backgrounded && now >= deadline) break;
    await session.waitForActivity(now < deadline ? Math.min(deadline - now, TIMER_MAX_MS) : TIMER_MAX_MS, ctx.signal);
  }
  const note = messages.sameJobNote(session.id, Math.round((joinedAt - session.startedAt) / MS_PER_SECOND));
  const result: ToolResult<ExecDetails> = session.state === "running" ? runningResult(session, [])
    : foregroundResult(session, {
      warnings: [], durationMs: (session.endedAt ?? Date.now()) - session.startedAt, timeoutSeconds: call.timeoutSeconds,
      processToolAvailable,
    });
  return { content: [{ type: "text", text: `${note}\n\n${result.content[0].text}` }], details: result.details };
}
