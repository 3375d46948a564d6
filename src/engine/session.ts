// One spawned command with its output, state and lifetime (REG-12). A single settle path (complete) ends it,
// and the first termination reason recorded wins.
import { setTimeout as delay } from "node:timers/promises";
import type { ChildHandle } from "./spawn/child-handle.js";
import { OutputBuffer, type OutputStream } from "./output-buffer.js";
import { createOutputSanitizer, type OutputSanitizer } from "./output-sanitizer.js";
import type { OutputText } from "./output-text.js";
import {
  CURSOR_POSITION_REPLY, extractCursorPositionRequests, trackCursorKeyMode, type CursorKeyMode,
} from "./key-encoder.js";
import { KILL_GRACE_MS, KILL_SETTLE_MS, TIMER_MAX_MS } from "./settings.js";
import { outcomeStatusOf } from "./outcome.js";
import { deriveSessionName } from "./session-name.js";
import { SESSION_MARKER_VARIABLE, signalMarkedProcesses } from "./spawn/session-marker.js";

export type SessionState = "running" | "finalizing" | "finished";
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
  /** The processes carry the marker: termination also signals the ones that left the group. */
  #markerSignals = false;
  /** Processes outside the group that still held the output when the session was settled without end-of-file. */
  outputHolders: number[] = [];
  readonly startedAt = Date.now();
  readonly output: OutputBuffer;
  pid: number | undefined;
  pty = false;
  child: ChildHandle | undefined;
  state: SessionState = "running";
  backgrounded = false;
  hidden = false;
  /** Aborted in its foreground window: never listed or notified (EXEC-40). */
  discarded = false;
  exitCode: number | null = null;
  exitSignal: string | null = null;
  exitReason: ExitReason = "exit";
  terminationReason: TerminationReason | undefined;
  /** A kill or remove request (not disposal, KILL-16). */
  killRequested = false;
  endedAt: number | undefined;
  expiresAt: number | undefined;
  lastOutputAt: number;
  cursorKeyMode: CursorKeyMode = "unknown";
  stdinEnded = false;
  /** Consecutive running polls without output (POLL-06). */
  emptyPolls = 0;
  /** The exit was reported by a terminal poll (NOTIFY-06, NOTIFY-13). */
  exitReported = false;
  notified = false;
  /** Called after each sanitized chunk while somebody listens (EXEC-39 progress updates). */
  onChunk: (() => void) | undefined;
  readonly #sanitizers: Record<OutputStream, OutputSanitizer> = {
    stdout: createOutputSanitizer(), stderr: createOutputSanitizer(),
  };
  readonly #waiters = new Set<() => void>();
  readonly #completionHandlers: Array<(session: Session) => void> = [];
  #timers: NodeJS.Timeout[] = [];
  #terminating = false;
  #terminateOnAttach = false;
  #processExited = false;
  /** The exit status of the process when it was observed before completion (the output may still be open). */
  #exitStatus: { code: number | null; signal: string | null } | undefined;
  readonly completed: Promise<void>;
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
    this.lastOutputAt = this.startedAt;
    this.output = new OutputBuffer({ aggregateCap: init.aggregateCap, pendingCap: init.pendingCap });
    this.completed = new Promise((resolve) => (this.#resolveCompleted = resolve));
  }

  attach(child: ChildHandle): void {
    this.child = child;
    this.pid = child.pid;
    this.pty = child.pty;
    this.cursorKeyMode = child.pty ? "unknown" : "normal"; // KEYS-12
    // Termination requested while the process was being spawned (e.g. dispose): carry it out now.
    if (this.#terminateOnAttach) this.#startTermination();
  }

  onComplete(handler: (session: Session) => void): void {
    this.#completionHandlers.push(handler);
  }

  /** Raw output from the backend: tracked, sanitized and appended. Output after completion is ignored. */
  receive(stream: OutputStream, chunk: Uint8Array | string): void {
    if (this.state !== "running") return;
    this.lastOutputAt = Date.now();
    let raw = chunk;
    if (this.pty && typeof raw === "string") {
      this.cursorKeyMode = trackCursorKeyMode(raw, this.cursorKeyMode);
      const { text, requests } = extractCursorPositionRequests(raw);
      for (let i = 0; i < requests; i += 1) this.child?.reply?.(CURSOR_POSITION_REPLY); // INPUT-16
      raw = text;
    }
    this.#append(stream, this.#sanitizers[stream].writeText(raw));
  }

  #append(stream: OutputStream, text: OutputText): void {
    if (text.length === 0) return;
    this.output.append(stream, text);
    this.onChunk?.();
    this.#wake();
  }

  processExited(code?: number | null, signal?: string | null): void {
    this.#processExited = true;
    if (code !== undefined || signal !== undefined) this.#exitStatus = { code: code ?? null, signal: signal ?? null };
  }

  get stdinWritable(): boolean {
    const stdin = this.child?.stdin;
    return this.state === "running" && !this.stdinEnded && stdin !== undefined && stdin.writable !== false;
  }

  idleMs(now = Date.now()): number {
    return Math.max(0, now - this.lastOutputAt);
  }

  /** Arms the overall timeout; `timeoutMs` undefined means no limit (EXEC-29 … EXEC-31). */
  armTimeout(timeoutMs: number | undefined): void {
    if (timeoutMs === undefined) return;
    this.#schedule(Math.min(timeoutMs, TIMER_MAX_MS), () => this.terminate("overall-timeout"), false);
  }

  /**
   * SIGTERM to the group, SIGKILL after the grace period, settle after KILL_SETTLE_MS more (KILL-08, KILL-11).
   * Returns false when the process cannot be signalled (KILL-05).
   */
  terminate(reason: TerminationReason): boolean {
    if (this.state !== "running") return true;
    if (!this.child) {
      this.terminationReason ??= reason;
      this.#terminateOnAttach = true;
      return true;
    }
    if (!this.child.signal) return false;
    this.terminationReason ??= reason;
    this.#startTermination();
    return true;
  }

  #startTermination(): void {
    if (!this.child?.signal || this.#terminating || this.state !== "running") return; // KILL-04: no restart of the grace
    this.#terminating = true;
    if (this.#processExited) {
      this.#forceKill(); // KILL-12
    } else {
      this.#signalTree("SIGTERM");
      this.#schedule(KILL_GRACE_MS, () => this.#forceKill(), true);
    }
  }

  /** The group (KILL-08), and the processes that left it but carry the session's marker. */
  #signalTree(signal: "SIGTERM" | "SIGKILL"): void {
    this.child?.signal?.(signal);
    if (this.#markerSignals) signalMarkedProcesses(this.marker, signal, this.pid);
  }

  get terminationPending(): boolean {
    return this.#terminating && this.state === "running";
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
      this.complete(null, "SIGKILL");
      return;
    }
    this.outputHolders = this.child?.outputHolders?.() ?? [];
    this.complete(this.#exitStatus.code, this.#exitStatus.signal);
  }

  #schedule(ms: number, action: () => void, keepAlive: boolean): void {
    const timer = setTimeout(action, ms);
    if (!keepAlive) timer.unref();
    this.#timers.push(timer);
  }

  /** The single settle path (REG-03): exit fields, frozen output, closed stdin, then the completion handlers. */
  complete(code: number | null, signal: string | null, runtimeError?: string): void {
    if (this.state === "finished") return;
    this.state = "finalizing";
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    for (const stream of ["stdout", "stderr"] as const) this.#append(stream, this.#sanitizers[stream].end());
    this.exitCode = code;
    this.exitSignal = signal;
    this.exitReason = runtimeError !== undefined ? "runtime-error"
      : this.terminationReason ?? (signal ? "signal" : "exit");
    this.output.freeze();
    this.child?.release();
    this.endedAt = Date.now();
    this.expiresAt = this.endedAt + this.ttlMs;
    this.state = "finished";
    this.onChunk = undefined;
    for (const handler of this.#completionHandlers) handler(this);
    this.#resolveCompleted();
    this.#wake();
  }

  /**
   * Marks the environment of a local command with this session's marker, set last so that a call cannot change or
   * drop it; from now on termination also reaches the processes that carry it.
   */
  markEnvironment(env: Record<string, string>): void {
    env[SESSION_MARKER_VARIABLE] = this.marker;
    this.#markerSignals = true;
  }

  /** Backgrounds the session (EXEC-35): from now on its process does not keep the host alive. */
  markBackgrounded(): void {
    this.backgrounded = true;
    this.child?.unref?.();
  }

  /** The host is ending: SIGKILL to the whole tree at once, synchronously; completion no longer matters. */
  killNow(): void {
    if (this.state !== "finished") this.#signalTree("SIGKILL");
  }

  /** A kill or remove request confirmed by the exit (KILL-06). */
  get confirmedStop(): boolean {
    return this.killRequested && this.exitReason === "manual-cancel";
  }

  get timedOut(): boolean {
    return this.exitReason === "overall-timeout" || this.exitReason === "no-output-timeout";
  }

  /** RES-26: raw outcome status. */
  get outcomeStatus(): OutcomeStatus {
    return outcomeStatusOf(this);
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

  /** Wakes every waiting poll (POLL-09). */
  notifyWaiters(): void {
    this.#wake();
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
