// The in-memory registry of one engine (REG-01): running sessions, finished records, TTL and caps.
import type { Session } from "./session.js";
import { MAX_FINISHED_CHARS, MAX_FINISHED_RECORDS } from "./settings.js";

export interface SessionRegistryOptions {
  /** Called after a finished record was deleted: cleared, removed, expired or evicted (REG-10). */
  onRecordDeleted?: (session: Session) => void;
}

export class SessionRegistry {
  /** Sessions whose process has not completed: foreground, backgrounded, hidden and discarded. */
  readonly #active = new Map<string, Session>();
  /** Finished records in completion order, so the first entry is the oldest-completed (REG-07). */
  readonly #finished = new Map<string, Session>();
  #finishedChars = 0;
  #expiryTimer: NodeJS.Timeout | undefined;
  #nextSeq = 0;
  readonly #onRecordDeleted: ((session: Session) => void) | undefined;

  constructor(options: SessionRegistryOptions = {}) {
    this.#onRecordDeleted = options.onRecordDeleted;
  }

  nextSeq(): number {
    return this.#nextSeq++;
  }

  /** ID-02: ids are unique among live sessions and finished records. */
  isTaken(id: string): boolean {
    return this.#active.has(id) || this.#finished.has(id);
  }

  add(session: Session): void {
    this.#active.set(session.id, session);
    session.onComplete((done) => this.#onComplete(done));
  }

  /** A running session of the scope that process actions can address: in the foreground or the background. */
  running(scopeKey: string, id: string): Session | undefined {
    const session = this.#active.get(id);
    return session && session.scopeKey === scopeKey && session.addressable ? session : undefined;
  }

  finished(scopeKey: string, id: string): Session | undefined {
    const session = this.#finished.get(id);
    return session && session.scopeKey === scopeKey ? session : undefined;
  }

  isRetained(session: Session): boolean {
    return this.#finished.get(session.id) === session;
  }

  /** Visible sessions of a scope for `list`: backgrounded running ones and finished records (LIST-01). */
  visible(scopeKey: string): Session[] {
    const running = [...this.#active.values()].filter((s) => s.listed && s.scopeKey === scopeKey);
    const finished = [...this.#finished.values()].filter((s) => s.scopeKey === scopeKey);
    // LIST-02: newest start first, later registration first on ties.
    return [...running, ...finished].sort((a, b) => b.startedAt - a.startedAt || b.seq - a.seq);
  }

  /** REG-14: backgrounded sessions whose process has not been confirmed exited, hidden ones included. */
  liveIds(): string[] {
    return [...this.#active.values()].filter((s) => s.backgrounded).map((s) => s.id);
  }

  activeSessions(): Session[] {
    return [...this.#active.values()];
  }

  deleteFinished(id: string): boolean {
    const session = this.#finished.get(id);
    if (!session) return false;
    this.#finished.delete(id);
    this.#finishedChars -= session.output.length;
    this.#armExpiry();
    this.#onRecordDeleted?.(session);
    return true;
  }

  /** REG-13: deletes every finished record of exactly this scope. */
  clearFinished(scopeKey: string): number {
    let count = 0;
    for (const session of [...this.#finished.values()]) {
      if (session.scopeKey === scopeKey && this.deleteFinished(session.id)) count += 1;
    }
    return count;
  }

  dispose(): void {
    clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
    this.#finished.clear();
    this.#finishedChars = 0;
  }

  #onComplete(session: Session): void {
    this.#active.delete(session.id);
    if (!session.listed) return;
    this.#finished.set(session.id, session);
    this.#finishedChars += session.output.length;
    this.#applyCaps();
    this.#armExpiry();
  }

  /** REG-07 … REG-10: evict the oldest-completed while over 50 records, or over the total while more than one. */
  #applyCaps(): void {
    while (this.#finished.size > MAX_FINISHED_RECORDS) this.#evictOldest();
    while (this.#finishedChars > MAX_FINISHED_CHARS && this.#finished.size > 1) this.#evictOldest();
  }

  #evictOldest(): void {
    const oldest = this.#finished.keys().next();
    if (!oldest.done) this.deleteFinished(oldest.value);
  }

  /** REG-06: one unref'd timer for the earliest expiry, re-armed after every change. */
  #armExpiry(): void {
    clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
    let earliest = Infinity;
    for (const session of this.#finished.values()) earliest = Math.min(earliest, session.expiresAt ?? Infinity);
    if (earliest === Infinity) return;
    this.#expiryTimer = setTimeout(() => this.#expire(), Math.max(0, earliest - Date.now()));
    this.#expiryTimer.unref();
  }

  #expire(): void {
    const now = Date.now();
    for (const session of [...this.#finished.values()]) {
      if ((session.expiresAt ?? Infinity) <= now) this.deleteFinished(session.id);
    }
    this.#armExpiry();
  }
}
