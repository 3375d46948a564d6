// `process log` (LOG-01 … LOG-13): line-based window over the retained aggregate; never drains.
import * as messages from "../messages.js";
import type { SessionView } from "../session.js";
import { LOG_DEFAULT_LINES } from "../settings.js";
import type { LogFinishedDetails, LogRunningDetails } from "../result-details.js";
import type { ToolResult } from "../types.js";
import type { EngineContext } from "../engine-context.js";
import { countLineBreaks } from "../output-text.js";
import { countLines, readLines } from "./log-lines.js";
import type { LogCall } from "./normalize-process.js";
import {
  discardedNote, exitFields, exitLabelOf, guidanceSuffix, inputWaitHint, inputWaitView, nameField, reportedStatus, result,
} from "./session-view.js";

export interface LogSlice { text: string; totalLines: number; hint: string }

/** LOG-08: a window bound is floored, and a negative one is 0. */
const lineCount = (value: number | undefined): number | undefined =>
  value === undefined ? undefined : Math.max(0, Math.floor(value));

/**
 * LOG-03 … LOG-08: CRLF normalized, one trailing empty line dropped, window by offset/limit. `lineBreaks` is the
 * LF count of `aggregate` when the caller keeps it (OutputBuffer.lineBreaks).
 */
export function sliceLog(
  aggregate: string, offsetParam: number | undefined, limitParam: number | undefined, lineBreaks = countLineBreaks(aggregate),
): LogSlice {
  const total = countLines(aggregate, lineBreaks);
  const offset = lineCount(offsetParam);
  const limit = lineCount(limitParam);
  let from: number;
  let to = total;
  let hint = "";
  if (offset === undefined && limit === undefined) {
    from = Math.max(0, total - LOG_DEFAULT_LINES);
    if (total > LOG_DEFAULT_LINES) hint = messages.logPagingHint(LOG_DEFAULT_LINES, total);
  } else if (offset === undefined) {
    from = limit === 0 ? total : Math.max(0, total - (limit ?? 0)); // LOG-06
  } else {
    from = Math.min(offset, total);
    if (limit !== undefined) to = Math.min(offset + limit, total);
  }
  return { text: readLines(aggregate, from, to, lineBreaks), totalLines: total, hint };
}

export function readLog(session: SessionView, call: Pick<LogCall, "offset" | "limit">, engine: EngineContext,
): ToolResult<LogRunningDetails> | ToolResult<LogFinishedDetails> {
  // Counted before the aggregate joins its pieces, so that each piece is counted once.
  const lineBreaks = session.output.lineBreaks;
  const aggregate = session.output.aggregate;
  const slice = sliceLog(aggregate, call.offset, call.limit, lineBreaks);
  const running = session.state !== "finished";
  const placeholder = running ? messages.LOG_EMPTY_RUNNING : messages.LOG_EMPTY_FINISHED;
  let text = discardedNote(session) + (slice.text || placeholder) + slice.hint;
  if (session.confirmedStop) text += `\n\n${messages.processStoppedByRequest(exitLabelOf(session))}`;
  const totals = {
    total: slice.totalLines, totalLines: slice.totalLines, totalChars: aggregate.length, truncated: session.output.truncated,
  };
  if (running) {
    const wait = inputWaitView(session, engine.settings.inputWaitIdleMs);
    if (wait.waitingForInput) text += inputWaitHint(wait);
    return result(text, { status: "running", sessionId: session.id, ...nameField(session), ...wait, output: text, ...totals });
  }
  text += guidanceSuffix(session);
  return result(text, {
    status: reportedStatus(session), sessionId: session.id, ...exitFields(session),
    ...nameField(session), output: text, ...totals,
  });
}
