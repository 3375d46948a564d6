// One spawned command with its output, state and lifetime (REG-12), as a closed state machine: its life is one
// phase (starting → running → terminating → finished), each move a method whose switch the compiler checks. Other
// modules read it through SessionView and call its intent methods; none of them can reach its output buffer, its
// child or its sink. A single settle path ends it, and the first termination reason recorded wins.
import { setTimeout as delay } from "node:timers/promises";
import type { ChildHandle, ChildSink, TerminationSignal } from "./spawn/child-handle.js";
import type { CursorKeyMode } from "./key-encoder.js";
import { OutputBuffer, viewOf, type OutputStream, type OutputView } from "./output-buffer.js";
import { createOutputSanitizer, type OutputSanitizer } from "./output-sanitizer.js";
import type { OutputText } from "./output-text.js";
import { KILL_GRACE_MS, KILL_SETTLE_MS, TIMER_MAX_MS } from "./settings.js";
import { outcomeStatusOf, type ExitReason, type OutcomeStatus, type TerminationReason } from "./outcome.js";
import { deriveSessionName } from "./session-name.js";
import { keepShape } from "./shape-keeper.js";
import { SESSION_MARKER_VARIABLE, signalMarkedProcesses } from "./spawn/session-marker.js";

export type { ExitReason, OutcomeStatus, TerminationReason };
export type SessionState = "running" | "finished";
/**
 * Who sees the session. `foreground`: its exec call is still waiting; `background`: listed, polled and notified
 * (EXEC-35); `hidden`: removed while running, its process still ending (PROC-11); `discarded`: aborted in its
 * foreground window or never started, never listed or notified (EXEC-40, RES-24). Only these moves exist:
 * foreground → background → hidden, and foreground → discarded.
 */
export type Visibility = "foreground" | "background" | "hidden" | "discarded";

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
/** The process was seen to exit before its output ended (KILL-12), with its status when the backend knew it. */
interface ExitSeen { status: ExitStatus | undefined }
/** A termination: why, and whether a kill or remove asked for it (KILL-06; disposal and aborts do not, KILL-16). */
interface Stop { reason: TerminationReason; byRequest: boolean }

type Phase =
  | { kind: "starting"; stop: Stop | undefined; exitSeen: ExitSeen | undefined }
  | { kind: "running"; child: ChildHandle; exitSeen: ExitSeen | undefined }
  | { kind: "terminating"; child: ChildHandle; stop: Stop; sent: TerminationSignal; exitSeen: ExitSeen | undefined }
  | {
    kind: "finished"; child: ChildHandle | undefined; exit: ExitStatus; reason: ExitReason; byRequest: boolean;
    endedAt: number; outputHolders: readonly number[];
  };

/** What the readers of a session (results, list, log, notices) may see of it: its facts, none of its intents. */
export type SessionView = Pick<Session,
  | "id" | "seq" | "command" | "name" | "scopeKey" | "cwd" | "startedAt" | "output" | "state" | "visibility" | "pid" | "pty"
  | "exitCode" | "exitSignal" | "exitReason" | "endedAt" | "expiresAt" | "lastOutputAt" | "outputHolders" | "cursorKeyMode"
  | "addressable" | "backgrounded" | "listed" | "announcesExit" | "stdinWritable" | "stoppable" | "confirmedStop"
  | "timedOut" | "outcomeStatus" | "idleMs">;

/** Starts the session's process, reporting its events to `sink`; a plain value attaches at once. */
export type SpawnFor = (sink: ChildSink) => Promise<ChildHandle> | ChildHandle;

// The session's private handlers, for SessionSink; set once, by Session's static block.
let sinkHandlers: {
  receive(session: Session, stream: OutputStream, chunk: Uint8Array | string): void;
  processExited(session: Session, code?: number | null, signal?: string | null): void;
  complete(session: Session, code: number | null, signal: string | null): void;
};

/**
 * A session's sink: methods and one set of module functions, no closure per session. Every chunk of output goes
 * through onOutput, and optimized code that inlined one session's closure would be thrown away with that session
 * (bench/README.md, issue 36 item 4).
 */
class SessionSink implements ChildSink {
  readonly copiesOutput = true; // the sanitizer and the output buffer copy what they keep

  readonly #session: Session;

  constructor(session: Session) {
    this.#session = session;
  }

  onOutput(stream: OutputStream, chunk: Uint8Array | string): void {
    sinkHandlers.receive(this.#session, stream, chunk);
  }

  onExit(code?: number | null, signal?: string | null): void {
    sinkHandlers.processExited(this.#session, code, signal);
  }

  onComplete(code: number | null, signal: string | null): void {
    sinkHandlers.complete(this.#session, code, signal);
  }
}

const NOT_DERIVED = Symbol("not derived");

export class Session {
  static {
    sinkHandlers = {
      receive: (session, stream, chunk) => session.#receive(stream, chunk),
      processExited: (session, code, signal) => session.#processExited(code, signal),
      complete: (session, code, signal) => session.#complete(code, signal),
    };
  }

  readonly id: string;
  /** Registration order, the tie-breaker of list ordering (LIST-02). */
  readonly seq: number;
  readonly command: string;
  /** NAME-01: derived when first asked (a foreground result never shows it). */
  get name(): string | undefined {
    if (this.#name === NOT_DERIVED) this.#name = deriveSessionName(this.command);
    return this.#name;
  }
  readonly scopeKey: string;
  readonly cwd: string;
  readonly ttlMs: number;
  readonly marker: string;
  readonly startedAt = Date.now();
  readonly output: OutputView;
  /** Resolves once, after the completion handlers ran. */
  readonly completed: Promise<void>;

  #name: string | undefined | typeof NOT_DERIVED = NOT_DERIVED;
  #phase: Phase = { kind: "starting", stop: undefined, exitSeen: undefined };
  #visibility: Visibility = "foreground";
  #lastOutputAt: number;
  #stdinEnded = false;
  /** The processes carry the marker: termination also signals the ones that left the group. */
  #marked = false;
  readonly #output: OutputBuffer;
  /** What the spawn backend reports to this session; handed only to the spawn function of `start`. */
  readonly #sink: ChildSink = new SessionSink(this);
  readonly #sanitizers: Record<OutputStream, OutputSanitizer> = {
    stdout: createOutputSanitizer(), stderr: createOutputSanitizer(),
  };
  readonly #waiters = new Set<() => void>();
  readonly #outputListeners = new Set<() => void>();
  readonly #textListeners = new Set<(stream: OutputStream, text: OutputText) => void>();
  readonly #completionHandlers = new Set<(session: Session) => void>();
  #timers: NodeJS.Timeout[] = [];
  #resolveCompleted!: () => void;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.seq = init.seq;
    this.command = init.command;
    this.scopeKey = init.scopeKey;
    this.cwd = init.cwd;
    this.ttlMs = init.ttlMs;
    this.marker = init.marker;
    this.#lastOutputAt = this.startedAt;
    this.#output = new OutputBuffer({ aggregateCap: init.aggregateCap, pendingCap: init.pendingCap });
    this.output = viewOf(this.#output);
    this.completed = new Promise((resolve) => (this.#resolveCompleted = resolve));
  }

  // ── what readers see ──────────────────────────────────────────────────────────────────────────────────────────

  get state(): SessionState { return this.#phase.kind === "finished" ? "finished" : "running"; }
  get visibility(): Visibility { return this.#visibility; }
  get pid(): number | undefined { return this.#child?.pid; }
  get pty(): boolean { return this.#child?.pty ?? false; }
  get exitCode(): number | null { return this.#phase.kind === "finished" ? this.#phase.exit.code : null; }
  get exitSignal(): string | null { return this.#phase.kind === "finished" ? this.#phase.exit.signal : null; }
  get exitReason(): ExitReason { return this.#phase.kind === "finished" ? this.#phase.reason : "exit"; }
  get endedAt(): number | undefined { return this.#phase.kind === "finished" ? this.#phase.endedAt : undefined; }
  get expiresAt(): number | undefined { return this.endedAt === undefined ? undefined : this.endedAt + this.ttlMs; }
  get lastOutputAt(): number { return this.#lastOutputAt; }
  /** Processes outside the group that still held the output when the session was settled without end-of-file. */
  get outputHolders(): readonly number[] { return this.#phase.kind === "finished" ? this.#phase.outputHolders : []; }
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
    return this.listed && this.exitReason !== "manual-cancel";
  }

  get stdinWritable(): boolean {
    const stdin = this.#child?.stdin;
    return this.state === "running" && !this.#stdinEnded && stdin !== undefined && stdin.writable !== false;
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
    return this.#phase.kind === "finished" && this.#phase.byRequest && this.#phase.reason === "manual-cancel";
  }

  get timedOut(): boolean {
    return this.exitReason === "overall-timeout";
  }

  /** RES-26: raw outcome status. */
  get outcomeStatus(): OutcomeStatus {
    return outcomeStatusOf(this);
  }

  get #child(): ChildHandle | undefined {
    return this.#phase.kind === "starting" ? undefined : this.#phase.child;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────────────────────────

  /** Called after each sanitized chunk until completion (EXEC-39 progress updates). Returns the unsubscriber. */
  onOutput(listener: () => void): () => void {
    this.#outputListeners.add(listener);
    return () => void this.#outputListeners.delete(listener);
  }

  /**
   * Called with each sanitized piece of a stream's output, in order, until completion (the last piece comes before
   * the completion handlers run). Watches read lines from it (issue 34). Returns the unsubscriber.
   */
  onText(listener: (stream: OutputStream, text: OutputText) => void): () => void {
    if (this.#phase.kind === "finished") return () => undefined;
    this.#textListeners.add(listener);
    return () => void this.#textListeners.delete(listener);
  }

  /** Called once at completion, in subscription order. Returns the unsubscriber. */
  onComplete(handler: (session: Session) => void): () => void {
    this.#completionHandlers.add(handler);
    return () => void this.#completionHandlers.delete(handler);
  }

  /** Resolves on the next output, drop, completion, backgrounding or hide, or after `ms`, or when `signal` aborts. */
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

  /**
   * Starts the process with `spawn`, the only code that gets this session's sink. When it fails, the session is
   * discarded with no record and the id released (RES-24), and the error is passed on.
   */
  start(spawn: SpawnFor): Promise<void> {
    if (this.#phase.kind !== "starting") return Promise.reject(new Error(`session ${this.id} was already started`));
    let started: Promise<ChildHandle> | ChildHandle;
    try {
      started = spawn(this.#sink);
    } catch (error) {
      this.#abandonStart();
      return Promise.reject(error);
    }
    if (!(started instanceof Promise)) {
      this.#attach(started);
      return Promise.resolve();
    }
    return started.then((child) => this.#attach(child), (error: unknown) => {
      this.#abandonStart();
      throw error;
    });
  }

  /**
   * Sets this session's marker in a local command's environment, the caller's own copy, after the call's overrides so
   * that a call cannot change or drop it. From now on termination also reaches the processes that carry it.
   */
  markEnvironment(env: Record<string, string>): void {
    this.#marked = true;
    env[SESSION_MARKER_VARIABLE] = this.marker;
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
    this.#wake(); // a retried exec that joined this job waits for it to be backgrounded (issue 34)
  }

  /** The exec call was aborted in its foreground window (EXEC-40): never listed or notified, and terminated. */
  cancelInForeground(): void {
    if (this.#visibility !== "foreground") return;
    this.#visibility = "discarded";
    this.terminate("manual-cancel");
  }

  /** `kill` (KILL-03) or `remove` (PROC-11): terminate, and report the exit as stopped by request (KILL-06). */
  requestStop(): void {
    this.#terminate({ reason: "manual-cancel", byRequest: true });
  }

  /** `remove` of a running session (PROC-11): no longer found, listed or notified; a waiting poll returns at once (POLL-12). */
  hide(): void {
    if (this.#visibility !== "background") return;
    this.#visibility = "hidden";
    this.#wake();
  }

  /** Writes to the process's input; the caller checked `stdinWritable`. A failing stream rejects (INPUT-07). */
  async writeInput(data: string | Uint8Array): Promise<void> {
    await this.#child?.stdin?.write(data);
  }

  /** Ends input: closes the pipe, or sends EOF to the terminal (INPUT-05, PTY-07). */
  endInput(): void {
    this.#child?.stdin?.end();
    this.#stdinEnded = true;
  }

  /**
   * Takes the pending output of both streams in arrival order (untrimmed), and whether some was dropped at the
   * pending cap since the last take (OUT-10, OUT-17).
   */
  takePending(): { text: string; dropped: boolean } {
    const dropped = this.#output.takePendingDropped();
    return { text: this.#output.drainPending(), dropped };
  }

  /**
   * SIGTERM to the group, SIGKILL after the grace period, settle after KILL_SETTLE_MS more (KILL-08, KILL-11).
   * Returns false when the process cannot be signalled (KILL-05).
   */
  terminate(reason: TerminationReason): boolean {
    return this.#terminate({ reason, byRequest: false });
  }

  /** Disposal of a session that cannot be signalled (KILL-05): settle it now; its process is out of reach. */
  abandon(): void {
    this.#complete(null, null);
  }

  /** The host is ending: SIGKILL to the whole tree at once, synchronously; completion no longer matters. */
  killNow(): void {
    if (this.#phase.kind !== "finished") this.#signalTree("SIGKILL");
  }

  // ── transitions ────────────────────────────────────────────────────────────────────────────────────────────────

  #attach(child: ChildHandle): void {
    const phase = this.#phase;
    switch (phase.kind) {
      case "starting":
        this.#phase = { kind: "running", child, exitSeen: phase.exitSeen };
        // Termination requested while the process was being spawned (e.g. dispose): carry it out now.
        if (phase.stop) this.#beginTermination(child, phase.stop, phase.exitSeen);
        return;
      case "running":
      case "terminating":
      case "finished":
        return; // attached once; a finished session (abandoned while spawning) ignores its late child
    }
  }

  #terminate(stop: Stop): boolean {
    const phase = this.#phase;
    switch (phase.kind) {
      case "starting":
        this.#phase = { ...phase, stop: phase.stop ? { ...phase.stop, byRequest: phase.stop.byRequest || stop.byRequest } : stop };
        return true;
      case "running":
        if (!phase.child.signal) return false;
        this.#beginTermination(phase.child, stop, phase.exitSeen);
        return true;
      case "terminating": // KILL-04: no restart of the grace, and the first reason stays
        if (stop.byRequest && !phase.stop.byRequest) this.#phase = { ...phase, stop: { ...phase.stop, byRequest: true } };
        return true;
      case "finished":
        return true;
    }
  }

  /**
   * SIGTERM, then SIGKILL after the grace period; at once SIGKILL when the process already exited (KILL-12). A
   * process that cannot be signalled (an executor's without kill) is settled after the grace, never waited on.
   */
  #beginTermination(child: ChildHandle, stop: Stop, exitSeen: ExitSeen | undefined): void {
    if (!child.signal) {
      this.#phase = { kind: "terminating", child, stop, sent: "SIGKILL", exitSeen };
      this.#schedule(KILL_GRACE_MS, () => this.#complete(null, null), true);
      return;
    }
    if (exitSeen) {
      this.#phase = { kind: "terminating", child, stop, sent: "SIGKILL", exitSeen };
      this.#forceKill();
      return;
    }
    this.#phase = { kind: "terminating", child, stop, sent: "SIGTERM", exitSeen };
    this.#signalTree("SIGTERM");
    this.#schedule(KILL_GRACE_MS, () => this.#forceKill(), true);
  }

  #forceKill(): void {
    if (this.#phase.kind !== "terminating") return;
    this.#phase = { ...this.#phase, sent: "SIGKILL" };
    this.#signalTree("SIGKILL");
    this.#schedule(KILL_SETTLE_MS, () => this.#settleWithoutEndOfFile(), true);
  }

  #processExited(code?: number | null, signal?: string | null): void {
    const status = code !== undefined || signal !== undefined ? { code: code ?? null, signal: signal ?? null } : undefined;
    const phase = this.#phase;
    switch (phase.kind) {
      case "starting":
      case "running":
      case "terminating":
        this.#phase = { ...phase, exitSeen: { status } };
        return;
      case "finished":
        return;
    }
  }

  /**
   * KILL-11: completion was not observed. When the exit was, it is reported as it happened (not as a SIGKILL that
   * never reached the shell), with the processes that still hold the output.
   */
  #settleWithoutEndOfFile(): void {
    const phase = this.#phase;
    if (phase.kind !== "terminating") return;
    const status = phase.exitSeen?.status;
    if (!status) return this.#complete(null, "SIGKILL");
    this.#complete(status.code, status.signal, phase.child.outputHolders?.() ?? []);
  }

  /** The command could not be started (RES-24): no record, the id is released. */
  #abandonStart(): void {
    if (this.#visibility === "foreground") this.#visibility = "discarded";
    this.#complete(null, null);
  }

  /**
   * The single settle path (REG-03): exit fields, frozen output, released child, then the completion handlers.
   * It runs synchronously, so no caller ever sees a session between running and finished.
   */
  #complete(code: number | null, signal: string | null, outputHolders: readonly number[] = []): void {
    const phase = this.#phase;
    if (phase.kind === "finished") return;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    for (const stream of ["stdout", "stderr"] as const) this.#append(stream, this.#sanitizers[stream].end());
    const stop = phase.kind === "running" ? undefined : phase.stop;
    const child = phase.kind === "starting" ? undefined : phase.child;
    this.#output.freeze();
    child?.release();
    this.#phase = {
      kind: "finished", child, exit: { code, signal }, reason: stop?.reason ?? (signal ? "signal" : "exit"),
      byRequest: stop?.byRequest ?? false, endedAt: Date.now(), outputHolders,
    };
    this.#outputListeners.clear();
    this.#textListeners.clear();
    for (const handler of [...this.#completionHandlers]) handler(this);
    this.#completionHandlers.clear();
    this.#resolveCompleted();
    this.#wake();
  }

  // ── the process and its output ─────────────────────────────────────────────────────────────────────────────────

  /** Raw output from the backend: sanitized and appended. Output after completion is ignored. */
  #receive(stream: OutputStream, chunk: Uint8Array | string): void {
    if (this.#phase.kind === "finished") return;
    this.#lastOutputAt = Date.now();
    this.#append(stream, this.#sanitizers[stream].writeText(chunk));
  }

  #append(stream: OutputStream, text: OutputText): void {
    if (text.length === 0) return;
    this.#output.append(stream, text);
    for (const listener of this.#textListeners) listener(stream, text);
    for (const listener of [...this.#outputListeners]) listener();
    this.#wake();
  }

  /** The group (KILL-08), and the processes that left it but carry the session's marker. */
  #signalTree(signal: TerminationSignal): void {
    this.#child?.signal?.(signal);
    if (this.#marked) signalMarkedProcesses(this.marker, signal, this.pid);
  }

  #schedule(ms: number, action: () => void, keepAlive: boolean): void {
    const timer = setTimeout(action, ms);
    if (!keepAlive) timer.unref();
    this.#timers.push(timer);
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

// A session that never starts, kept for the shapes of a session, its sink, sanitizers and output (shape-keeper.ts).
keepShape(new Session({
  id: "", seq: -1, command: "", scopeKey: "", cwd: "", aggregateCap: 1, pendingCap: 1, ttlMs: 0, marker: "",
}));
