// One `watch` call (issue 34): checked arguments, the session looked up as process actions do, then the watch.
import type { EngineContext } from "../engine-context.js";
import * as messages from "../messages.js";
import { failure, result } from "../process/session-view.js";
import type { ProcessFailureDetails, WatchDetails } from "../result-details.js";
import type { CallContext, ToolResult, WatchParams } from "../types.js";
import { normalizeWatchParams } from "./normalize-watch.js";
import type { WatchRegistry } from "./watch-registry.js";

export function runWatch(
  params: WatchParams, ctx: CallContext, engine: EngineContext, watches: WatchRegistry,
): ToolResult<WatchDetails> | ToolResult<ProcessFailureDetails> {
  engine.assertNotDisposed();
  const call = normalizeWatchParams(params);
  const id = call.sessionId;
  const running = engine.registry.running(ctx.scopeKey, id);
  if (running && !running.backgrounded) return failure(messages.notBackgrounded(id)); // as PROC-07
  const session = running ?? engine.registry.finished(ctx.scopeKey, id);
  if (!session) return failure(messages.noSession(id)); // as POLL-02
  const outcome = watches.add(session, call);
  switch (outcome.kind) {
    case "watching":
      return result<WatchDetails>(messages.watchStarted(id, call.pattern, call.regex, call.timeoutSeconds), {
        status: "running", sessionId: id, watch: outcome.view,
      });
    case "matched":
      return result<WatchDetails>(messages.outputMatchedEvent(id, outcome.line), {
        status: "completed", sessionId: id, watch: outcome.view, matchedLine: outcome.line,
      });
    case "ended":
      return result<WatchDetails>(messages.watchOnEndedSession(id, call.pattern), {
        status: "completed", sessionId: id, watch: outcome.view,
      });
  }
}
