// The public toolkit for authors of a HostExecutor that runs its commands through a local program (a sandbox, a
// container runtime's client): start that program as the engine starts a local command, over pipes or a terminal,
// in a process group of its own; find and signal its processes; check the exec limits; pick the shell. Exported as
// `langchain-exec-process/engine`; the bundled executors use the engine through this module and the engine entry
// only, never through its internal modules.
import { abortError } from "./errors.js";
import { EOF_CHAR, type CursorKeyMode } from "./key-encoder.js";
import { execLimitError } from "./spawn/exec-limits.js";
import type { ChildHandle, ChildSink, SpawnRequest, TerminationSignal } from "./spawn/child-handle.js";
import { spawnWithPipes } from "./spawn/pipe-backend.js";
import { processGroupMembers, sendSignal, sessionMembers } from "./spawn/process-tree.js";
import { spawnWithPty, terminalName } from "./spawn/pty-backend.js";
import { selectShell, shellArgs } from "./spawn/shell.js";
import { PTY_COLS, PTY_ROWS } from "./settings.js";
import { validateTimerDelay } from "./timer-delay.js";

/** What `spawnLocal` starts: `file` with `args`, then the command text as its last argument. */
export type LocalSpawnRequest = SpawnRequest;
/** Where a local process reports its output, its exit, and its completion once its output has ended. */
export type LocalProcessSink = ChildSink;
/** A started local process: its pid, input, group signal and terminal state. */
export type LocalProcess = ChildHandle;
export type { CursorKeyMode, TerminationSignal };

/** The terminal size of every PTY session (PTY-02): a remote or sandboxed terminal is given the same. */
export const TERMINAL_SIZE: Readonly<{ cols: number; rows: number }> = Object.freeze({ cols: PTY_COLS, rows: PTY_ROWS });

/**
 * Starts `request.shell` with its args and the command as a local process, in a process group of its own, over
 * pipes (stdin closed, EXEC-45) or a terminal of TERMINAL_SIZE that answers cursor-position queries itself
 * (INPUT-16). Resolves once it runs; rejects with an ExecProcessError (`spawn-failed`, `pty-unavailable`).
 */
export function spawnLocal(request: LocalSpawnRequest, sink: LocalProcessSink, options: { pty: boolean }): Promise<LocalProcess> {
  return options.pty ? spawnWithPty(request, sink) : spawnWithPipes(request, sink);
}

/** The shell a command runs in, for an environment (SHELL when it is a usable POSIX shell, else sh), and its args. */
export function localShell(env: Record<string, string | undefined>): { shell: string; args: string[] } {
  const shell = selectShell(env);
  return { shell, args: shellArgs(shell) };
}

/** The argument-too-large or environment-too-large error the kernel's exec limits would cause, or undefined. */
export function checkExecLimits(request: LocalSpawnRequest): Error | undefined {
  return execLimitError(request);
}

/** The terminal name a PTY session gets (PTY-03): the environment's TERM unless unset, empty or `dumb`, else xterm-256color. */
export { terminalName };

/** Sends `signal` to a pid (or, negative, a process group); a process that is gone is no error. */
export function signalProcess(target: number, signal: NodeJS.Signals): void {
  sendSignal(target, signal);
}

/** Live members of a process group. */
export { processGroupMembers };

/** Live members of a session, with their parent pids. */
export { sessionMembers };

/** The end-of-input character a terminal session's `eof` writes (PTY-07): the terminal itself stays open. */
export const TERMINAL_EOF = EOF_CHAR;

/** The rejection of a call whose abort signal fired (EXEC-40), for an executor that stops waiting on abort. */
export { abortError };

/** A delay an embedder configured, checked to fit a Node.js timer (0 to 2147483647 ms), else an invalid-option error. */
export { validateTimerDelay };
