// Public data types of the session engine (SPEC §0.7).
import type { CursorKeyMode } from "./key-encoder.js";
import type { SpawnFaults } from "./spawn/faults.js";
import type { ExecConfig } from "./settings.js";
import type {
  ExecDetails, ExecProgressDetails, ProcessDetails, ProcessFailureDetails, ToolDetails, WatchDetails,
} from "./result-details.js";

export type { ExecConfig };

/** `exec` arguments as the model sends them (SPEC §2.1). Unknown keys are accepted and ignored (EXEC-26). */
export interface ExecParams {
  command?: unknown;
  workdir?: unknown;
  env?: unknown;
  yieldMs?: unknown;
  background?: unknown;
  timeoutSeconds?: unknown;
  /** @deprecated seconds; alias of `timeoutSeconds` (EXEC-04). */
  timeout?: unknown;
  pty?: unknown;
  elevated?: unknown;
  host?: unknown;
  node?: unknown;
  title?: unknown;
  [key: string]: unknown;
}

/** `process` arguments (SPEC §7.1). */
export interface ProcessParams {
  action?: unknown;
  sessionId?: unknown;
  data?: unknown;
  eof?: unknown;
  keys?: unknown;
  hex?: unknown;
  literal?: unknown;
  text?: unknown;
  bracketed?: unknown;
  offset?: unknown;
  limit?: unknown;
  timeout?: unknown;
  [key: string]: unknown;
}

/** `watch` arguments (issue 34): a session, what to look for, and how long. */
export interface WatchParams {
  sessionId?: unknown;
  /** A literal substring, or with `regex: true` a regular expression (RE2 syntax). */
  pattern?: unknown;
  /** @default false */
  regex?: unknown;
  /** End the watch at its first match. @default true */
  once?: unknown;
  /** End the watch with a "no match" event after this many seconds. @default until the session ends */
  timeoutSeconds?: unknown;
  [key: string]: unknown;
}

export type ResultStatus = "completed" | "failed" | "running";

/** RES-01: the text a model reads and the details of its kind (result-details.ts). */
export interface ToolResult<Details extends ToolDetails = ToolDetails> {
  content: [{ type: "text"; text: string }];
  details: Details;
}

export interface CallContext {
  scopeKey: string;
  signal?: AbortSignal;
  /** Default true; false = synchronous mode (EXEC-42). */
  processToolAvailable?: boolean;
  /** Default false (EXEC-11). */
  allowElevated?: boolean;
  /** Progress updates during the foreground window (EXEC-39). */
  onUpdate?: (partial: ToolResult<ExecProgressDetails>) => void;
}

export interface SystemEvent { scopeKey: string; sessionId: string; text: string; contextKey: string; createdAt: number }
export interface WakeRequest { scopeKey: string; sessionId: string; source: "exec-event"; reason: "exec-event" }

/** A subscriber to wake requests, added after the engine was created (`engine.addWakeListener`). */
export interface WakeListener {
  /** Only the wake requests of this scope; undefined: every scope's. */
  readonly scopeKey?: string;
  /** Called like `onWake`: once per queued exit event, after it is queued (NOTIFY-12). */
  onWake(request: WakeRequest): void;
  /** Called once when the engine is disposed; no wake follows it. */
  onDispose?(): void;
}

/** Extension point for `host: "sandbox"` / `host: "node"` (EXEC-08, EXEC-09). */
/**
 * Runs the commands of one host (`sandbox`, `node`) somewhere else (EXEC-09). Every executor has this one shape:
 * `spawn`, and `dispose` when it holds resources (connections, containers); its owner calls `dispose` after the
 * engines that use it were disposed. The building blocks of a local program's executor are in executor-kit.ts.
 */
export interface HostExecutor {
  spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess>;
  /** Ends what the executor still holds (remote commands, connections, containers); resolves once it is done. */
  dispose?(): Promise<void>;
}
export interface ExecutorSpawnRequest {
  command: string;
  /** The resolved working directory: the call's `workdir` against `defaultCwd`, unchecked (EXEC-09). */
  cwd: string;
  /** The engine's working directory: the default `workdir`, and the default allowed root of a sandbox. */
  defaultCwd: string;
  /** The prepared environment: the engine's inherited environment with the call's `env` applied. */
  env: Record<string, string>;
  /** Only the call's `env` overrides (already checked): what a remote executor sends instead of the whole `env`. */
  envOverrides: Record<string, string>;
  pty: boolean;
  node?: string;
  elevated: boolean;
  scopeKey: string;
  /** The call's abort signal: an executor that makes the command wait (a free SSH channel) stops waiting on abort. */
  signal?: AbortSignal;
}
export interface ExecutorProcess {
  pid?: number;
  onOutput(listener: (stream: "stdout" | "stderr", chunk: string | Uint8Array) => void): void;
  /** Called once, after all output. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  stdin?: { write(data: string | Uint8Array): Promise<void>; end(): void; readonly writable: boolean };
  /** Absent: the session cannot be terminated (KILL-05). */
  kill?(signal: "SIGTERM" | "SIGKILL"): void;
  /** Terminal sessions: answers a terminal query such as a cursor-position request, even after input ended (INPUT-16). */
  reply?(data: string): void;
  /**
   * Terminal sessions whose terminal the executor reads itself (a local PTY, as spawnLocal's): the cursor-key mode
   * its program selected (KEYS-12). The engine then takes the output as it comes, without inspecting it again.
   */
  readonly cursorKeyMode?: CursorKeyMode;
}

export interface SessionEngineOptions {
  /** Default working directory. @default process.cwd() at creation (EXEC-18) */
  cwd?: string;
  /** Settings source and inherited command environment. @default process.env */
  env?: Record<string, string | undefined>;
  /** The documented nested config (SPEC §1.1). */
  config?: { tools?: { exec?: ExecConfig } };
  /** Overrides OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS (SET-15). */
  inputWaitIdleMs?: number;
  executors?: { sandbox?: HostExecutor; node?: HostExecutor };
  /**
   * Makes local spawn backends fail on purpose, for conformance and fault-injection tests only (PTY-05, PTY-06,
   * INPUT-07). Never set it in production.
   */
  faults?: SpawnFaults;
  /** Called synchronously for every queued exit event (NOTIFY-02). */
  onSystemEvent?: (event: SystemEvent) => void;
  /** Called once per queued exit event, after it is queued (NOTIFY-12). */
  onWake?: (request: WakeRequest) => void;
  /**
   * End every live session when the host process ends, like execa's `cleanup`: SIGKILL to every process group on
   * `process.exit()`, an uncaught exception or the end of the event loop; termination on SIGTERM, SIGINT and SIGHUP
   * (the host then exits as it would have, unless it handles the signal itself). `false` leaves them running.
   * @default true
   */
  cleanup?: boolean;
  /**
   * Retry dedupe (issue 34): an exec identical to a running one of the same scope (command, workdir, env, host, node,
   * pty, elevated) started less than this many ms ago joins it instead of starting a second process. 0 turns it off.
   * @default 0
   */
  dedupeWindowMs?: number;
}

/** A value, or the promise of it: what an engine answers at once in-process and after a round trip when remote. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What the tools, the middleware, the exit-event node and wakeOnExit use of an engine. The in-process engine
 * (`createSessionEngine`, a LocalSessionEngine) answers the queries at once; an engine served by a session host
 * (`connectSessionHost`) answers them after a round trip, so callers await them.
 */
export interface SessionEngine {
  exec(params: ExecParams, ctx: CallContext): Promise<ToolResult<ExecDetails>>;
  process(params: ProcessParams, ctx: CallContext): Promise<ToolResult<ProcessDetails>>;
  /** Takes the scope's queued exit events; each event is taken once, by one caller (NOTIFY-04). */
  drainSystemEvents(scopeKey: string): MaybePromise<SystemEvent[]>;
  peekSystemEvents(scopeKey: string): MaybePromise<SystemEvent[]>;
  clearFinishedSessions(scopeKey: string): MaybePromise<number>;
  liveSessionIds(): MaybePromise<string[]>;
  /** Adds a wake subscriber (errors it throws are ignored, NOTIFY-11); returns the function that removes it. */
  addWakeListener(listener: WakeListener): () => void;
  /**
   * Engines shared by several processes (a session host): asks for the right to run the wake run of `scopeKey`,
   * so that one worker of a deployment wakes a thread, not each of them. Resolves false when another client holds
   * it; `releaseWakeRun` gives it back once the run has ended. Absent: this process is the only one that wakes.
   */
  claimWakeRun?(scopeKey: string): Promise<boolean>;
  releaseWakeRun?(scopeKey: string): void;
  /** In-process: ends every session. A remote engine detaches instead: its sessions run on in their host. */
  dispose(): Promise<void>;
  /** True once dispose() was called. */
  readonly disposed: boolean;
  /**
   * Watches a backgrounded session's output (issue 34): a matching line queues an `Output matched` system event and
   * requests a wake, as an exit does. Optional, so that other engines stay valid; the watch tool needs it.
   */
  watch?(params: WatchParams, ctx: CallContext): Promise<ToolResult<WatchDetails | ProcessFailureDetails>>;
}

/** The in-process engine: its queries answer at once. */
export interface LocalSessionEngine extends SessionEngine {
  drainSystemEvents(scopeKey: string): SystemEvent[];
  peekSystemEvents(scopeKey: string): SystemEvent[];
  clearFinishedSessions(scopeKey: string): number;
  liveSessionIds(): string[];
}
