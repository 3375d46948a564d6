// wakeOnExit: runs an idle agent again when its background work ends, so it notices the exit by itself.
// The run carries no new user message: the toolkit's middleware (or exit-event node) hands the queued events to
// the model. One run per burst (debounce), never two runs of a thread at once, a rate limit per minute.
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { ExecProcessError } from "../engine/errors.js";
import type { SessionEngine, SystemEvent, WakeRequest } from "../engine/index.js";
import { validateTimerDelay } from "../engine/timer-delay.js";
import type { ThreadRuns } from "./thread-runs.js";

/** Waits this long after an exit event, so a burst of exits wakes the agent once. */
export const DEFAULT_WAKE_DEBOUNCE_MS = 250;
/** At most this many wake runs of one thread start within any minute. */
export const DEFAULT_WAKE_MAX_RUNS_PER_MINUTE = 6;
const RATE_WINDOW_MS = 60_000;

/** A createAgent agent or a compiled LangGraph graph with a checkpointer; `Result` is what its `invoke` resolves to. */
export interface WakeableRunnable<Result = unknown> {
  invoke(input: { messages: never[] }, config: WakeRunConfig): Promise<Result>;
}

/** The run config: `configurable.thread_id` names the thread the agent is run on. */
export interface WakeRunConfig {
  configurable?: { thread_id?: string | number; [key: string]: unknown };
  [key: string]: unknown;
}

/** What a wake run is about, given to `onRun` before the run starts. */
export interface WakeRun {
  threadId: string;
  scopeKey: string;
  /** The queued exit events the run will deliver, with full session ids (the text names only 8 characters). */
  events: SystemEvent[];
}

/** What a wake run produced, given to `onResult` when the run has ended without an error. */
export interface WakeResult<Result = unknown> extends WakeRun {
  /** What the runnable's `invoke` resolved to: for createAgent, the thread's state with the agent's answer last. */
  result: Result;
}

export interface WakeOnExitOptions<Result = unknown> {
  /**
   * Quiet time after an exit event before the run starts; events within it share one run. From 0 to 2147483647
   * (about 24.8 days, the longest a Node.js timer waits); any other value, NaN included, makes wakeOnExit throw an
   * ExecProcessError with code "invalid-option" naming debounceMs. @default 250
   */
  debounceMs?: number;
  /**
   * Wake runs of the thread allowed within any 60 s; later events wait for the window. A number ≥ 1 or Infinity;
   * anything else makes wakeOnExit throw an invalid-option ExecProcessError. @default 6
   */
  maxRunsPerMinute?: number;
  /** Receives the error of a failed wake run; the events stay queued for the next run. @default ignored */
  onError?: (error: unknown) => void;
  /** Called just before each wake run. */
  onRun?: (run: WakeRun) => void;
  /** Called after each wake run that succeeded, with what it produced (a chat UI shows the agent's answer). */
  onResult?: (run: WakeResult<Result>) => void;
}

/**
 * What `wakeOnExit` returns: call it (or its `stop`) to stop waking. `nextRun()` resolves when the next wake run has
 * finished, with what `onResult` receives; it rejects with that run's error, or with an ExecProcessError of code
 * "wake-stopped" when the loop stops first. While it waits it keeps the host alive: a background session does not
 * (see "When the host ends"), so a script that awaits it sees the woken agent's answer.
 */
export interface WakeOnExitHandle<Result = unknown> {
  (): void;
  stop(): void;
  nextRun(): Promise<WakeResult<Result>>;
}

/** What wakeOnExit needs from a toolkit. */
export interface WakeSource {
  readonly engine: SessionEngine;
  readonly threadRuns: ThreadRuns;
  scopeForThread(threadId: string): string;
}

interface NormalizedWakeOptions<Result> {
  debounceMs: number;
  maxRunsPerMinute: number;
  onError: (error: unknown) => void;
  onRun: (run: WakeRun) => void;
  onResult: (run: WakeResult<Result>) => void;
}

function normalizeWakeOptions<Result>(options: WakeOnExitOptions<Result>): NormalizedWakeOptions<Result> {
  const { debounceMs = DEFAULT_WAKE_DEBOUNCE_MS, maxRunsPerMinute = DEFAULT_WAKE_MAX_RUNS_PER_MINUTE } = options;
  validateTimerDelay("wakeOnExit", "debounceMs", debounceMs); // a longer timer would fire after 1 ms (issue 20)
  if (typeof maxRunsPerMinute !== "number" || !(maxRunsPerMinute >= 1)) {
    throw new ExecProcessError({
      code: "invalid-option", owner: "wakeOnExit", option: "maxRunsPerMinute", value: String(maxRunsPerMinute),
      expected: "a number of at least 1, or Infinity",
    });
  }
  const ignore = () => undefined;
  return {
    debounceMs, maxRunsPerMinute,
    onError: options.onError ?? ignore, onRun: options.onRun ?? ignore, onResult: options.onResult ?? ignore,
  };
}

function threadIdOfConfig(config: WakeRunConfig): string {
  const threadId = config?.configurable?.thread_id;
  if (typeof threadId === "string" || typeof threadId === "number") return String(threadId);
  throw new TypeError("wakeOnExit: config.configurable.thread_id is required: it names the thread the agent is woken on.");
}

/** Starts waking `runnable` on the config's thread; returns the handle (`stop()`, `nextRun()`). */
export function startWakeOnExit<Result>(
  source: WakeSource, runnable: WakeableRunnable<Result>, config: WakeRunConfig, options: WakeOnExitOptions<Result> = {},
): WakeOnExitHandle<Result> {
  const loop = new WakeLoop(source, runnable, config, threadIdOfConfig(config), normalizeWakeOptions(options));
  loop.start();
  const stop = () => loop.stop();
  return Object.assign(stop, { stop, nextRun: () => loop.nextRun() });
}

/** A ref'd timer that never fires in practice: it holds the event loop open while a nextRun() waits. */
const KEEP_ALIVE_MS = 2_147_483_647;

interface RunWaiter<Result> {
  resolve(result: WakeResult<Result>): void;
  reject(error: unknown): void;
}

class WakeLoop<Result> {
  readonly #scopeKey: string;
  #stopped = false;
  #running = false;
  /** An exit event arrived that no run has been started for yet. */
  #pending = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #runStarts: number[] = [];
  readonly #unsubscribe: Array<() => void> = [];
  readonly #waiters: Array<RunWaiter<Result>> = [];
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(
    readonly source: WakeSource, readonly runnable: WakeableRunnable<Result>, readonly config: WakeRunConfig,
    readonly threadId: string, readonly options: NormalizedWakeOptions<Result>,
  ) {
    this.#scopeKey = source.scopeForThread(threadId);
  }

  start(): void {
    this.#unsubscribe.push(
      this.source.engine.addWakeListener({
        scopeKey: this.#scopeKey, onWake: (request) => this.#onWake(request), onDispose: () => this.stop(),
      }),
      this.source.threadRuns.onIdle(this.threadId, () => this.#scheduleIfPending()),
    );
    // Events queued before the loop started.
    void this.#queued().then((events) => {
      if (events.length > 0) this.#pending = true;
      this.#scheduleIfPending();
    });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#settleWaiters((waiter) => waiter.reject(new ExecProcessError({ code: "wake-stopped" })));
  }

  /** The next wake run's result (or error); the host stays alive while one is awaited. */
  nextRun(): Promise<WakeResult<Result>> {
    if (this.#stopped) return Promise.reject(new ExecProcessError({ code: "wake-stopped" }));
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#keepAlive ??= setInterval(() => undefined, KEEP_ALIVE_MS);
    });
  }

  #settleWaiters(settle: (waiter: RunWaiter<Result>) => void): void {
    clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    for (const waiter of this.#waiters.splice(0)) settle(waiter);
  }

  #onWake(request: WakeRequest): void {
    if (request.scopeKey !== this.#scopeKey) return;
    this.#pending = true;
    this.#schedule(this.options.debounceMs);
  }

  async #queued(): Promise<SystemEvent[]> {
    if (this.source.engine.disposed) return [];
    try {
      return await this.source.engine.peekSystemEvents(this.#scopeKey);
    } catch {
      return []; // a session host out of reach: the next wake request tries again
    }
  }

  /** After a run of the thread: a follow-up only for events that arrived meanwhile and are still queued. */
  #scheduleIfPending(): void {
    if (!this.#pending) return;
    void this.#queued().then((events) => {
      if (events.length > 0) this.#schedule(this.options.debounceMs);
    });
  }

  /** Arms the one timer; a run in flight re-checks the queue when it ends instead. */
  #schedule(delayMs: number): void {
    if (this.#stopped || this.#running || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => void this.#fire(), delayMs);
  }

  async #fire(): Promise<void> {
    if (this.#stopped || this.source.threadRuns.isBusy(this.threadId)) { // a busy thread calls back when idle
      this.#timer = undefined;
      return;
    }
    const waitMs = this.#rateLimitWaitMs(Date.now());
    if (waitMs > 0) {
      this.#timer = undefined;
      return this.#schedule(waitMs);
    }
    // The run counts as started from here, so no second timer is armed while the queue is read and claimed.
    this.#running = true;
    this.#timer = undefined;
    try {
      await this.#claimAndRun();
    } finally {
      this.#running = false;
    }
    this.#scheduleIfPending(); // events that arrived during the run and were not delivered by it: one follow-up
  }

  /**
   * Runs the agent when events are queued and this process holds the scope's wake claim. Of the workers that share
   * a session host and wake the same thread, the host grants the claim to one at a time (engine.claimWakeRun); the
   * others leave the events to it. A claim given back with events still queued is announced again by the host.
   */
  async #claimAndRun(): Promise<void> {
    const { engine } = this.source;
    const claimed = engine.claimWakeRun === undefined || await engine.claimWakeRun(this.#scopeKey).catch(() => false);
    if (!claimed) {
      this.#pending = false;
      return;
    }
    try {
      const events = await this.#queued();
      if (events.length === 0 || this.#stopped || this.source.threadRuns.isBusy(this.threadId)) {
        if (events.length === 0) this.#pending = false; // already delivered (a run drained them, or a poll acknowledged them)
        return;
      }
      this.#pending = false;
      await this.#run(events);
    } finally {
      engine.releaseWakeRun?.(this.#scopeKey);
    }
  }

  #rateLimitWaitMs(now: number): number {
    while (this.#runStarts.length > 0 && (this.#runStarts[0] ?? 0) <= now - RATE_WINDOW_MS) this.#runStarts.shift();
    if (this.#runStarts.length < this.options.maxRunsPerMinute) return 0;
    return (this.#runStarts[0] ?? now) + RATE_WINDOW_MS - now;
  }

  async #run(events: SystemEvent[]): Promise<void> {
    this.#runStarts.push(Date.now());
    this.source.threadRuns.begin(this.threadId);
    const run: WakeRun = { threadId: this.threadId, scopeKey: this.#scopeKey, events };
    let result: Result;
    try {
      ignoreErrors(() => this.options.onRun(run));
      // The exit callback runs in the async context of the tool call that started the job; without a fresh context
      // LangGraph would take the wake run for a subgraph of that old run and checkpoint it there.
      result = await AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => this.runnable.invoke({ messages: [] }, this.config));
    } catch (error) {
      ignoreErrors(() => this.options.onError(error));
      this.#settleWaiters((waiter) => waiter.reject(error));
      return;
    } finally {
      this.source.threadRuns.end(this.threadId);
    }
    ignoreErrors(() => this.options.onResult({ ...run, result }));
    this.#settleWaiters((waiter) => waiter.resolve({ ...run, result }));
  }
}

function ignoreErrors(callback: () => void): void {
  try {
    callback();
  } catch {
    // the embedder's callback failed; the loop keeps going
  }
}
