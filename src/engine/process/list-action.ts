// `process list` (LIST-01 … LIST-11).
import * as messages from "../messages.js";
import { formatCompactDuration } from "../duration.js";
import { sanitizeText } from "../output-sanitizer.js";
import type { SessionView } from "../session.js";
import { truncateMiddle } from "../session-name.js";
import { LIST_COMMAND_MAX, LIST_NAME_MAX, LIST_STATUS_WIDTH } from "../settings.js";
import type { ListDetails, ListEntry } from "../result-details.js";
import type { ToolResult } from "../types.js";
import type { EngineContext } from "../engine-context.js";
import { inputWaitView, result } from "./session-view.js";

export function listSessions(engine: EngineContext, scopeKey: string): ToolResult<ListDetails> {
  const sessions = engine.registry.visible(scopeKey);
  if (sessions.length === 0) return result(messages.NO_SESSIONS, { status: "completed", sessions: [] });
  const now = Date.now();
  const entries = sessions.map((session) => {
    const listed = listEntry(session, engine.settings.inputWaitIdleMs, now);
    return { line: listed.line, entry: { ...listed.entry, ...engine.watches.watchesField(session) } as ListEntry };
  });
  const lines = entries.map(({ line }) => line);
  return result(lines.join("\n"), { status: "completed", sessions: entries.map(({ entry }) => entry) });
}

function listEntry(session: SessionView, thresholdMs: number, now: number): { line: string; entry: ListEntry } {
  const running = session.state !== "finished";
  const runtimeMs = (running ? now : session.endedAt ?? now) - session.startedAt;
  const base = {
    sessionId: session.id, status: running ? "running" : session.outcomeStatus, startedAt: session.startedAt,
  };
  const shared = {
    runtimeMs, cwd: session.cwd, command: session.command, ...listedName(session), tail: session.output.tail,
    truncated: session.output.truncated,
  };
  let marker = "";
  let entry: ListEntry;
  if (running) {
    const wait = inputWaitView(session, thresholdMs, now);
    if (wait.waitingForInput) marker = " [input-wait]"; // WAIT-06
    entry = { ...base, status: "running", ...shared, pid: session.pid ?? null, ...wait };
  } else {
    if (session.timedOut) marker = ` [${session.exitReason}]`; // LIST-05
    entry = {
      ...base, status: session.outcomeStatus, endedAt: session.endedAt, ...shared, exitCode: session.exitCode, exitSignal: session.exitSignal,
      exitReason: session.exitReason, timedOut: session.timedOut, noOutputTimedOut: false,
    };
  }
  // A model reads the label: controls and bidi overrides from the command are sanitized like output, on one line.
  const label = session.name !== undefined
    ? truncateMiddle(listedText(session.name), LIST_NAME_MAX) : truncateMiddle(listedText(session.command), LIST_COMMAND_MAX);
  const line = `${session.id} ${String(base.status).padEnd(LIST_STATUS_WIDTH)} ${formatCompactDuration(runtimeMs)}${marker} :: ${label}`;
  return { line, entry };
}

/** LIST-08 `name`, sanitized like the label; omitted when none was derived. */
function listedName(session: SessionView): { name?: string } {
  return session.name === undefined ? {} : { name: listedText(session.name) };
}

// Line breaks that sanitizing keeps (OUT-06 keeps CR and LF; U+2028/U+2029 are no controls).
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

/**
 * A name or command as list shows it: sanitized like output, and each run of line breaks one space (ours, issue 20),
 * so that a quoted token holding a newline cannot add a row of its own: one session is exactly one line.
 */
function listedText(text: string): string {
  return sanitizeText(text).replace(LINE_BREAKS, " ");
}
