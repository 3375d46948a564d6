// The `details` of every tool result (SPEC §4, §7): one type per result kind, so callers branch on data. The types
// describe what the builders return, field for field; a field that a kind never has is absent from it.
import type { ExitReason, FailureKind, OutcomeStatus, SessionFailureKind } from "./outcome.js";

export type { FailureKind };

/**
 * A union whose members also list the fields of the other members as absent (`?: undefined`), so that any field
 * of the union can be read (e.g. `details.sessionId`) and is undefined where the kind has none.
 */
export type Exclusive<Union, All = Union> = Union extends unknown
  ? Union & { [Key in Exclude<All extends unknown ? keyof All : never, keyof Union>]?: undefined }
  : never;

/** `name`, only when one was derived from the command (LIST-08). */
interface NamedSession {
  name?: string;
}

/** WAIT-02, WAIT-03: the input-wait fields of running list entries, polls and logs. */
export interface InputWaitFields {
  stdinWritable: boolean;
  waitingForInput: boolean;
  idleMs: number;
  lastOutputAt: number;
}

/** The exit fields of a terminal poll and of a finished log. */
export interface ExitFields {
  exitCode: number | null;
  exitSignal: string | null;
  exitReason: ExitReason;
  timedOut: boolean;
  /** No exit reason of this engine is a no-output timeout: always false, kept for the documented shape. */
  noOutputTimedOut: false;
  /** Processes outside the group that still held the output when the session was settled (KILL-11). */
  outputHeldByPids?: number[];
}

// ---- exec (§4) ----

/** RES-05, RES-06: a foreground command that completed (any exit code but 126 and 127). */
export interface ExecCompletedDetails {
  status: "completed";
  exitCode: number | null;
  exitSignal: string | null;
  durationMs: number;
  exitReason: "exit";
  /** The body of the text: the trimmed output (or "(no output)") and the exit-code line. */
  aggregated: string;
  noOutputTimedOut: false;
  cwd: string;
}

/** RES-10 … RES-20: a foreground command that failed. */
export interface ExecFailedDetails {
  status: "failed";
  exitCode: number | null;
  exitSignal: string | null;
  durationMs: number;
  failureKind: SessionFailureKind;
  exitReason: "exit" | "signal" | "overall-timeout";
  /** The trimmed output. */
  aggregated: string;
  timedOut: boolean;
  noOutputTimedOut: false;
  cwd: string;
}

/** EXEC-23, EXEC-28: the working directory is unusable; nothing was spawned. */
export interface WorkdirFailureDetails {
  status: "failed";
  exitCode: null;
  exitSignal: null;
  failureKind: "runtime-error";
  durationMs: number;
  aggregated: "";
  timedOut: false;
  /** The workdir as requested. */
  cwd: string;
}

/** EXEC-39: a progress update during the foreground window (`onUpdate`). */
export interface ExecProgressDetails {
  status: "running";
  sessionId: string;
  pid: number | null;
  startedAt: number;
  cwd: string;
  tail: string;
}

/** RES-23: the command is still running in the background: a progress update's fields and the follow-up hint. */
export interface ExecRunningDetails extends ExecProgressDetails {
  followUp: string;
}

export type ExecDetails = Exclusive<ExecCompletedDetails | ExecFailedDetails | WorkdirFailureDetails | ExecRunningDetails>;

// ---- process (§7, §8) ----

/** PROC-04: every returned process failure (invalid action, unknown session, guards, input refusals). */
export interface ProcessFailureDetails {
  status: "failed";
  error: string;
  /** What to do instead, where the text cannot say it (INPUT-03: the session needs `pty: true`). */
  hint?: string;
}

/** A session's watch as `list` and `poll` show it in their details, never in their texts (issue 34). */
export interface WatchView {
  watchId: string;
  pattern: string;
  regex: boolean;
  once: boolean;
  /** `watching` until its first match (once), its timeout, or its session's end. */
  state: "watching" | "matched" | "timed-out" | "session-ended";
  /** Lines matched so far. */
  matches: number;
  startedAt: number;
  timeoutSeconds: number | null;
}

/** `watches`: only on sessions that have or had a watch. */
interface WatchedSession {
  watches?: WatchView[];
}

/** The result of `watch` (issue 34): `running` while it waits; `completed` when retained output already decided it. */
export interface WatchDetails {
  status: "running" | "completed";
  sessionId: string;
  watch: WatchView;
  /** The matching line (sanitized, whitespace folded, cut), when retained output already held one. */
  matchedLine?: string;
}

interface ListEntryBase extends NamedSession, WatchedSession {
  sessionId: string;
  startedAt: number;
  runtimeMs: number;
  cwd: string;
  command: string;
  tail: string;
  truncated: boolean;
}

/** LIST-08: a running session in `list`. */
export interface ListRunningEntry extends ListEntryBase, InputWaitFields {
  status: "running";
  pid: number | null;
}

/** LIST-08: a finished session in `list`; LIST-09: its raw outcome status. */
export interface ListFinishedEntry extends ListEntryBase {
  status: OutcomeStatus;
  endedAt: number | undefined;
  exitCode: number | null;
  exitSignal: string | null;
  exitReason: ExitReason;
  timedOut: boolean;
  /** No exit reason of this engine is a no-output timeout: always false, kept for the documented shape. */
  noOutputTimedOut: false;
}

export type ListEntry = Exclusive<ListRunningEntry | ListFinishedEntry>;

/** LIST-07, LIST-08. */
export interface ListDetails {
  status: "completed";
  sessions: ListEntry[];
}

/** POLL-05: the session is still running. */
export interface PollRunningDetails extends NamedSession, InputWaitFields, WatchedSession {
  status: "running";
  sessionId: string;
  aggregated: string;
  retryInMs: number;
}

/** POLL-16: the session has ended; a confirmed stop is completed. */
export interface PollExitedDetails extends NamedSession, ExitFields, WatchedSession {
  status: OutcomeStatus;
  sessionId: string;
  aggregated: string;
}

/** LOG-08, LOG-11: the line counts of the retained output. */
export interface LogTotals {
  total: number;
  totalLines: number;
  totalChars: number;
  truncated: boolean;
}

/** LOG-11 for a running session. */
export interface LogRunningDetails extends NamedSession, InputWaitFields, LogTotals {
  status: "running";
  sessionId: string;
  output: string;
}

/** LOG-11 for a finished session. */
export interface LogFinishedDetails extends NamedSession, ExitFields, LogTotals {
  status: OutcomeStatus;
  sessionId: string;
  output: string;
}

/** INPUT-06: `write`, `send-keys`, `submit` and `paste` that were sent. */
export interface InputDetails extends NamedSession {
  status: "running";
  sessionId: string;
}

/** KILL-03: termination requested. */
export interface KillDetails extends NamedSession {
  status: "completed";
}

/** PROC-09, PROC-12, PROC-13: a record cleared or a session removed. */
export interface RemovedDetails {
  status: "completed";
}

type ProcessDetailKinds = ProcessFailureDetails | ListDetails | PollRunningDetails | PollExitedDetails
  | LogRunningDetails | LogFinishedDetails | InputDetails | KillDetails | RemovedDetails;
export type ProcessDetails = Exclusive<ProcessDetailKinds>;

/** The details of any result of the engine. */
export type ToolDetails = Exclusive<ExecCompletedDetails | ExecFailedDetails | WorkdirFailureDetails | ExecRunningDetails
  | ExecProgressDetails | ProcessDetailKinds | WatchDetails>;
