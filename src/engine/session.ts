// One spawned command with its output, state and lifetime (REG-12), as a closed state machine: other modules read
// it and call its intent methods, none of them writes its state. A single settle path ends it, and the first
// termination reason recorded wins.
import { setTimeout as delay } from "node:timers/promises";
import type { ChildHandle, ChildSink } from "./spawn/child-handle.js";
import type { CursorKeyMode } from "./key-encoder.js";
import { OutputBuffer, type OutputStream } from "./output-buffer.js";
import { createOutputSanitizer, type OutputSanitizer } from "./output-sanitizer.js";
import type { OutputText } from "./output-text.js";
import { KILL_GRACE_MS, KILL_SETTLE_MS, TIMER_MAX_MS } from "./settings.js";
import { outcomeStatusOf } from "./outcome.js";
import { deriveSessionName } from "./session-name.js";
import { SESSION_MARKER_VARIABLE, signalMarkedProcesses } from "./spawn/session-marker.js";

export type SessionState = "running" | "finished";
/**
 * Who sees the session. `foreground`: its exec call is still waiting; `background`: listed, polled and notified
 * (EXEC-35); `hidden`: removed while running, its process still ending (PROC-11); `discarded`: aborted in its
 * foreground window or never started, never listed or notified (EXEC-40, RES-24). Only these moves exist:
 * foreground → background → hidden, and foreground → discarded.
 */
export type Visibility = "foreground" | "background" | "hidden" | "discarded";
export type TerminationReason = "overall-timeout" | "manual-cancel";
export type ExitReason = "exit" | "signal" | "overall-timeout" | "no-output-timeout" | "manual-cancel" | "runtime-error";
export type OutcomeStatus = "completed" | "failed";

export interface SessionInit {
  id: string;
  seq: number;
  command: string;
  scopeKey: string;
  cwd: string;
  aggregateCap: number;
  pendingCap: number;
  ttlMs: number;
  /** Value of the marker variable its local processes inherit (see spawn/session-marker.ts). */
  marker: string;
}

interface ExitStatus { code: number | null; signal: string | null }

export class Session {
  readonly id: string;
  /** Registration order, the tie-breaker of list ordering (LIST-02). */
  readonly seq: number;
  readonly command: string;
  readonly name: string | undefined;
  readonly scopeKey: string;
  readonly cwd: string;
  readonly ttlMs: number;
  readonly marker: string;
  readonly startedAt = Date.now();
  readonly output: OutputBuffer;
  /** Resolves once, after the completion handlers ran. */
  readonly completed: Promise<void>;
  /** What the spawn backend reports to this session; given to the backend at spawn so no event can be missed. */
  readonly sink: ChildSink = {
    onOutput: (stream, chunk) => this.#receive(stream, chunk),
    copiesOutput: true, // the sanitizer and the output buffer copy what they keep
    onExit: (code, signal) => this.#processExited(code, signal),
    onComplete: (code, signal) => this.#complete(code, signal),
  };

  #child: ChildHandle | undefined;
  #state: SessionState = "running";
  #visibility: Visibility = "foreground";
  #exit: ExitStatus = { code: null, signal: null };
  #exitReason: ExitReason = "exit";
  #terminationReason: TerminationReason | undefined;
  /** A kill or remove request (not disposal, KILL-16). */
  #stopRequested = false;
  #endedAt: number | undefined;
  #lastOutputAt: number;
  #stdinEnded = false;
  /** The back-off step of the last running poll, 0 before the first one and after a stop request (POLL-06). */
  #pollSteps = 0;
  /** Processes outside the group that still held the output when the session was settled without end-of-file. */
  #outputHolders: number[] = [];
  /** The processes carry the marker: termination also signals the ones that left the group. */
  #markerSignals = false;
  #terminating = false;
  #terminateOnAttach = false;
  #exitObserved = false;
  /** The exit status of the process when it was observed before completion (the output may still be open). */
  #exitStatus: ExitStatus | undefined;
  readonly #sanitizers: Record<OutputStream, OutputSanitizer> = {
    stdout: createOutputSanitizer(), stderr: createOutputSanitizer(),
  };
  readonly #waiters = new Set<() => void>();
  readonly #outputListeners = new Set<() => void>();
  readonly #completionHandlers = new Set<(session: Session) => void>();
  #timers: NodeJS.Timeout[] = [];
  #resolveCompleted!: () => void;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.seq = init.seq;
    this.command = init.command;
    this.name = deriveSessionName(init.command);
    this.scopeKey = init.scopeKey;
    this.cwd = init.cwd;
    this.ttlMs = init.ttlMs;
    this.marker = init.marker;
    this.#lastOutputAt = this.startedAt;
    this.output = new OutputBuffer({ aggregateCap: init.aggregateCap, pendingCap: init.pendingCap });
    this.completed = new Promise((resolve) => (this.#resolveCompleted = resolve));
  }

  // ── what readers see ──────────────────────────────────────────────────────────────────────────────────────────

  get state(): SessionState { return this.#state; }
  get visibility(): Visibility { return this.#visibility; }
  get pid(): number | undefined { return this.#child?.pid; }
  get pty(): boolean { return this.#child?.pty ?? false; }
  get child(): ChildHandle | undefined { return this.#child; }
  get exitCode(): number | null { return this.#exit.code; }
  get exitSignal(): string | null { return this.#exit.signal; }
  get exitReason(): ExitReason { return this.#exitReason; }
  get endedAt(): number | undefined { return this.#endedAt; }
  get expiresAt(): number | undefined { return this.#endedAt === undefined ? undefined : this.#endedAt + this.ttlMs; }
  get lastOutputAt(): number { return this.#lastOutputAt; }
  get outputHolders(): readonly number[] { return this.#outputHolders; }
  /** KEYS-12: what the terminal last selected; pipes are always `normal`. */
  get cursorKeyMode(): CursorKeyMode { return this.#child?.cursorKeyMode ?? "unknown"; }

  /** Found by a process action's session id: its exec call waits on it, or it runs in the background. */
  get addressable(): boolean {
    return this.#visibility === "foreground" || this.#visibility === "background";
  }

  /** It was backgrounded (EXEC-35), and may have been removed since (REG-14). */
  get backgrounded(): boolean {
    return this.#visibility === "background" || this.#visibility === "hidden";
  }

  /** Shown by `list` while running and kept as a finished record once done (LIST-01, REG-02). */
  get listed(): boolean {
    return this.#visibility === "background";
  }

  /** Its exit deserves a notice, config permitting (NOTIFY-01, NOTIFY-05, NOTIFY-06): a listed session that was not stopped on request. */
  get announcesExit(): boolean {
    return this.listed && this.#exitReason !== "manual-cancel";
  }

  get stdinWritable(): boolean {
    const stdin = this.#child?.stdin;
    return this.#state === "running" && !this.#stdinEnded && stdin !== undefined && stdin.writable !== false;
  }

  /** The process can be signalled (KILL-05). */
  get stoppable(): boolean {
    return this.#child?.signal !== undefined;
  }

  idleMs(now = Date.now()): number {
    return Math.max(0, now - this.#lastOutputAt);
  }

  /** A kill or remove request confirmed by the exit (KILL-06). */
  get confirmedStop(): boolean {
    return this.#stopRequested && this.#exitReason === "manual-cancel";
  }

  get timedOut(): boolean {
    return this.#exitReason === "overall-timeout" || this.#exitReason === "no-output-timeout";
  }

  /** RES-26: raw outcome status. */
  get outcomeStatus(): OutcomeStatus {
    return outcomeStatusOf(this);
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────────────────────────

  /** Called after each sanitized chunk until completion (EXEC-39 progress updates). Returns the unsubscriber. */
  onOutput(listener: () => void): () => void {
    this.#outputListeners.add(listener);
    return () => void this.#outputListeners.delete(listener);
  }

  /** Called once at completion, in subscription order. Returns the unsubscriber. */
  onComplete(handler: (session: Session) => void): () => void {
    this.#completionHandlers.add(handler);
    return () => void this.#completionHandlers.delete(handler);
  }

  /** Resolves on the next output, drop, completion or hide, or after `ms`, or when `signal` aborts. */
  async waitForActivity(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return;
    const controller = new AbortController();
    const wake = () => controller.abort();
    this.#waiters.add(wake);
    signal?.addEventListener("abort", wake, { once: true });
    try {
      await delay(ms, undefined, { signal: controller.signal });
    } catch {
      // woken early
    } finally {
      this.#waiters.delete(wake);
      signal?.removeEventListener("abort", wake);
    }
  }

  // ── intents ────────────────────────────────────────────────────────────────────────────────────────────────────

  attach(child: ChildHandle): void {
    this.#child = child;
    // Termination requested while the process was being spawned (e.g. dispose): carry it out now.
    if (this.#terminateOnAttach) this.#startTermination();
  }

  /**
   * Marks the environment of a local command with this session's marker, set last so that a call cannot change or
   * drop it; from now on termination also reaches the processes that carry it.
   */
  markEnvironment(env: Record<string, string>): void {
    env[SESSION_MARKER_VARIABLE] = this.marker;
    this.#markerSignals = true;
  }

  /** Arms the overall timeout; `timeoutMs` undefined means no limit (EXEC-29 … EXEC-31). */
  armTimeout(timeoutMs: number | undefined): void {
    if (timeoutMs === undefined) return;
    this.#schedule(Math.min(timeoutMs, TIMER_MAX_MS), () => this.terminate("overall-timeout"), false);
  }

  /** Backgrounds the session (EXEC-35): from now on its process does not keep the host alive. */
  background(): void {
    if (this.#visibility !== "foreground") return;
    this.#visibility = "background";
    this.#child?.unref?.();
  }

  /** The exec call was aborted in its foreground window (EXEC-40): never listed or notified, and terminated. */
  cancelInForeground(): void {
    if (this.#visibility !== "foreground") return;
    this.#visibility = "discarded";
    this.terminate("manual-cancel");
  }

  /** The command could not be started (RES-24): no record, the id is released. */
  abandonStart(): void {
    if (this.#visibility === "foreground") this.#visibility = "discarded";
    this.#complete(null, null);
  }

  /** `kill` (KILL-03) or `remove` (PROC-11): terminate, and report the exit as stopped by request (KILL-06). */
  requestStop(): void {
    this.#stopRequested = true;
    this.#pollSteps = 0;
    this.terminate("manual-cancel");
  }

  /** `remove` of a running session (PROC-11): no longer found, listed or notified; a waiting poll returns at once (POLL-12). */
  hide(): void {
    if (this.#visibility !== "background") return;
    this.#visibility = "hidden";
    this.#wake();
  }

  /** Ends input: closes the pipe, or sends EOF to the terminal (INPUT-05, PTY-07). */
  endInput(): void {
    this.#child?.stdin?.end();
    this.#stdinEnded = true;
  }

  /**
   * A running poll was answered: returns its back-off step (POLL-06). As upstream 2026.9.6, a poll with new output
   * is step 1 again, and each empty poll after it one step more.
   */
  countRunningPoll(hadOutput: boolean): number {
    this.#pollSteps = hadOutput ? 1 : this.#pollSteps + 1;
    return this.#pollSteps;
  }

  /**
   * SIGTERM to the group, SIGKILL after the grace period, settle after KILL_SETTLE_MS more (KILL-08, KILL-11).
   * Returns false when the process cannot be signalled (KILL-05).
   */
  terminate(reason: TerminationReason): boolean {
    if (this.#state !== "running") return true;
    if (!this.#child) {
      this.#terminationReason ??= reason;
      this.#terminateOnAttach = true;
      return true;
    }
    if (!this.#child.signal) return false;
    this.#terminationReason ??= reason;
    this.#startTermination();
    return true;
  }

  /** Disposal of a session that cannot be signalled (KILL-05): settle it now; its process is out of reach. */
  abandon(): void {
    this.#complete(null, null);
  }

  /** The host is ending: SIGKILL to the whole tree at once, synchronously; completion no longer matters. */
  killNow(): void {
    if (this.#state !== "finished") this.#signalTree("SIGKILL");
  }

  // ── the process and its output ─────────────────────────────────────────────────────────────────────────────────

  /** Raw output from the backend: sanitized and appended. Output after completion is ignored. */
  #receive(stream: OutputStream, chunk: Uint8Array | string): void {
    if (this.#state !== "running") return;
    this.#lastOutputAt = Date.now();
    this.#append(stream, this.#sanitizers[stream].writeText(chunk));
  }

  #append(stream: OutputStream, text: OutputText): void {
    if (text.length === 0) return;
    this.output.append(stream, text);
    for (const listener of [...this.#outputListeners]) listener();
    this.#wake();
  }

  #processExited(code?: number | null, signal?: string | null): void {
    this.#exitObserved = true;
    if (code !== undefined || signal !== undefined) this.#exitStatus = { code: code ?? null, signal: signal ?? null };
  }

  #startTermination(): void {
    if (!this.#child?.signal || this.#terminating || this.#state !== "running") return; // KILL-04: no restart of the grace
    this.#terminating = true;
    if (this.#exitObserved) {
      this.#forceKill(); // KILL-12
    } else {
      this.#signalTree("SIGTERM");
      this.#schedule(KILL_GRACE_MS, () => this.#forceKill(), true);
    }
  }

  /** The group (KILL-08), and the processes that left it but carry the session's marker. */
  #signalTree(signal: "SIGTERM" | "SIGKILL"): void {
    this.#child?.signal?.(signal);
    if (this.#markerSignals) signalMarkedProcesses(this.marker, signal, this.pid);
  }

  #forceKill(): void {
    this.#signalTree("SIGKILL");
    this.#schedule(KILL_SETTLE_MS, () => this.#settleWithoutEndOfFile(), true);
  }

  /**
   * KILL-11: completion was not observed. When the exit was, it is reported as it happened (not as a SIGKILL that
   * never reached the shell), with the processes that still hold the output.
   */
  #settleWithoutEndOfFile(): void {
    if (!this.#exitStatus) {
      this.#complete(null, "SIGKILL");
      return;
    }
    this.#outputHolders = this.#child?.outputHolders?.() ?? [];
    this.#complete(this.#exitStatus.code, this.#exitStatus.signal);
  }

  #schedule(ms: number, action: () => void, keepAlive: boolean): void {
    const timer = setTimeout(action, ms);
    if (!keepAlive) timer.unref();
    this.#timers.push(timer);
  }

  /**
   * The single settle path (REG-03): exit fields, frozen output, released child, then the completion handlers.
   * It runs synchronously, so no caller ever sees a session between running and finished.
   */
  #complete(code: number | null, signal: string | null): void {
    if (this.#state === "finished") return;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    for (const stream of ["stdout", "stderr"] as const) this.#append(stream, this.#sanitizers[stream].end());
    this.#exit = { code, signal };
    this.#exitReason = this.#terminationReason ?? (signal ? "signal" : "exit");
    this.output.freeze();
    this.#child?.release();
    this.#endedAt = Date.now();
    this.#state = "finished";
    this.#outputListeners.clear();
    for (const handler of [...this.#completionHandlers]) handler(this);
    this.#completionHandlers.clear();
    this.#resolveCompleted();
    this.#wake();
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
