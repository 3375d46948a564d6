// How a finished command ended, classified in one place: the failure kinds of a foreground result (RES-10 … RES-20)
// and the outcome status that list, poll, log and the exit events report (RES-26).
import { EXIT_CODE_NOT_EXECUTABLE, EXIT_CODE_NOT_FOUND } from "./settings.js";

/** Why a session's termination was started: its overall timeout, or a kill, remove, abort or disposal. */
export type TerminationReason = "overall-timeout" | "manual-cancel";
/** How a session ended: by itself (an exit code or a signal), or through the termination it was given. */
export type ExitReason = "exit" | "signal" | TerminationReason;
export type OutcomeStatus = "completed" | "failed";

/** Why a command failed. `runtime-error` is the workdir failure of EXEC-23: no session ever ends with it. */
export type FailureKind = "shell-command-not-found" | "shell-not-executable" | "overall-timeout" | "signal" | "aborted"
  | "runtime-error";

/** The exit facts of a finished session. */
export interface ExitFacts {
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  readonly exitReason: ExitReason;
}

/** The failure kinds a finished session can have: all but the workdir failure, which never starts one. */
export type SessionFailureKind = Exclude<FailureKind, "runtime-error">;

/**
 * Why a command failed, or undefined when it completed: a timeout first, then a signal, a missing exit code, and the
 * shell's 127 (not found) and 126 (not executable). Any other exit code, 0 or not, completed.
 */
export function classifyFailure({ exitCode, exitSignal, exitReason }: ExitFacts): SessionFailureKind | undefined {
  if (exitReason === "overall-timeout") return "overall-timeout";
  if (exitSignal) return "signal";
  if (exitCode === null) return "aborted";
  if (exitCode === EXIT_CODE_NOT_FOUND) return "shell-command-not-found";
  if (exitCode === EXIT_CODE_NOT_EXECUTABLE) return "shell-not-executable";
  return undefined;
}

/** RES-26: completed only for a plain exit (no termination or signal) that is no failure. */
export function outcomeStatusOf(exit: ExitFacts): OutcomeStatus {
  return exit.exitReason === "exit" && classifyFailure(exit) === undefined ? "completed" : "failed";
}
