// Exit notifications (§10): per-scope FIFO queues of system events plus the embedder's callbacks.
import { exitEvent, exitLabel } from "./messages.js";
import type { SessionView } from "./session.js";
import { ID8_CHARS, SNIPPET_MAX_CHARS, SNIPPET_SOURCE_CHARS } from "./settings.js";
import type { SystemEvent, WakeListener, WakeRequest } from "./types.js";

export interface ExitNotifierOptions {
  notifyOnExit: boolean;
  notifyOnExitEmptySuccess: boolean;
  onSystemEvent?: ((event: SystemEvent) => void) | undefined;
  onWake?: ((request: WakeRequest) => void) | undefined;
}

/**
 * Output that could read as a line of its own where the model sees the event (`System: Exec … :: <snippet>`): a
 * `System:` prefix (any case, also with a full-width colon) or the head of another event (`Exec completed (…`).
 */
export const FORGED_EVENT = /system\s*[:\uff1a]|\bexec\s+(?:completed|failed)\b|\boutput\s+matched\b|\bwatch\s+ended\b/i;

/**
 * NOTIFY-08: the last 400 characters of the tail, whitespace folded, at most 180 characters. Ours (issue 20): a
 * snippet that could forge an event or a `System:` line is given as a JSON string, so the model reads it as output;
 * every other snippet stays as upstream writes it.
 */
export function exitSnippet(session: SessionView): string {
  const source = session.output.tail || session.output.aggregate;
  const folded = source.slice(-SNIPPET_SOURCE_CHARS).replace(/\s+/g, " ").trim();
  const snippet = folded.length > SNIPPET_MAX_CHARS ? `${folded.slice(0, SNIPPET_MAX_CHARS - 1)}…` : folded;
  return FORGED_EVENT.test(snippet) ? JSON.stringify(snippet) : snippet;
}

export class ExitNotifier {
  readonly #queues = new Map<string, SystemEvent[]>();
  readonly #options: ExitNotifierOptions;
  readonly #wakeListeners = new Set<WakeListener>();
  #disposed = false;

  constructor(options: ExitNotifierOptions) {
    this.#options = options;
  }

  /** Called when a session completes; queues its event unless a rule suppresses it (NOTIFY-01 … NOTIFY-06). */
  sessionCompleted(session: SessionView): void {
    if (!this.#shouldNotify(session)) return;
    const text = exitEvent(session.outcomeStatus, session.id.slice(0, ID8_CHARS),
      exitLabel(session.exitCode, session.exitSignal), exitSnippet(session), session.timedOut);
    this.queueEvent({ scopeKey: session.scopeKey, sessionId: session.id, text, contextKey: `exec:${session.id}` });
  }

  /**
   * Queues one system event for its scope and requests a wake (NOTIFY-02, NOTIFY-12): the one path of exit events
   * and of watch events (issue 34). Nothing is queued once the notifier is disposed.
   */
  queueEvent(fields: Omit<SystemEvent, "createdAt">): void {
    if (this.#disposed) return;
    const event: SystemEvent = { ...fields, createdAt: Date.now() };
    const queue = this.#queues.get(event.scopeKey) ?? [];
    queue.push(event);
    this.#queues.set(event.scopeKey, queue);
    ignoreErrors(() => this.#options.onSystemEvent?.(event)); // NOTIFY-11
    const wake: WakeRequest = { scopeKey: event.scopeKey, sessionId: event.sessionId, source: "exec-event", reason: "exec-event" };
    ignoreErrors(() => this.#options.onWake?.(wake));
    for (const listener of [...this.#wakeListeners]) {
      if (listener.scopeKey === undefined || listener.scopeKey === wake.scopeKey) ignoreErrors(() => listener.onWake({ ...wake }));
    }
  }

  /** Subscribes to wake requests until the returned function is called or the notifier is disposed. */
  addWakeListener(listener: WakeListener): () => void {
    this.#wakeListeners.add(listener);
    return () => void this.#wakeListeners.delete(listener);
  }

  #shouldNotify(session: SessionView): boolean {
    if (!this.#options.notifyOnExit) return false; // NOTIFY-04
    if (!session.announcesExit) return false; // NOTIFY-05, NOTIFY-06
    const silentSuccess = session.exitCode === 0 && session.exitReason === "exit" && session.output.aggregate.trim() === "";
    return !silentSuccess || this.#options.notifyOnExitEmptySuccess; // NOTIFY-03
  }

  drain(scopeKey: string): SystemEvent[] {
    const queue = this.#queues.get(scopeKey) ?? [];
    this.#queues.delete(scopeKey);
    return queue;
  }

  peek(scopeKey: string): SystemEvent[] {
    return [...(this.#queues.get(scopeKey) ?? [])];
  }

  /** NOTIFY-13: a terminal poll removes the session's still-queued exit event (its watch events stay). */
  acknowledge(session: SessionView): void {
    this.#dropEvents(session, (event) => event.contextKey === `exec:${session.id}`);
  }

  /** Removes the session's still-queued events, if any. */
  dropEventOf(session: SessionView): void {
    this.#dropEvents(session, () => true);
  }

  #dropEvents(session: SessionView, matches: (event: SystemEvent) => boolean): void {
    const queue = this.#queues.get(session.scopeKey);
    if (!queue) return;
    const kept = queue.filter((event) => event.sessionId !== session.id || !matches(event));
    if (kept.length > 0) this.#queues.set(session.scopeKey, kept);
    else this.#queues.delete(session.scopeKey);
  }

  dispose(): void {
    this.#disposed = true;
    this.#queues.clear();
    const listeners = [...this.#wakeListeners];
    this.#wakeListeners.clear();
    for (const listener of listeners) ignoreErrors(() => listener.onDispose?.());
  }
}

function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // the embedder's callback failed; the session and the queue are unaffected
  }
}
