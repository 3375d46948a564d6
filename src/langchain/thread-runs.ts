// Which threads have an agent run in flight, so a wake-up never overlaps a run of the same thread.
// The toolkit's middleware reports the runs it sees (beforeAgent … afterAgent); wakeOnExit reports its own.

type IdleListener = () => void;

export class ThreadRuns {
  /** Thread id → how to forget the run in flight (removes its abort listener). */
  readonly #inFlight = new Map<string, () => void>();
  readonly #idleListeners = new Map<string, Set<IdleListener>>();

  isBusy(threadId: string): boolean {
    return this.#inFlight.has(threadId);
  }

  /** A run of the thread started; it ends with `end(threadId)` or when `signal` aborts. */
  begin(threadId: string, signal?: AbortSignal): void {
    this.#inFlight.get(threadId)?.();
    const onAbort = (): void => this.end(threadId);
    signal?.addEventListener("abort", onAbort, { once: true });
    this.#inFlight.set(threadId, () => signal?.removeEventListener("abort", onAbort));
  }

  /** The thread's run ended (normally or not); idle listeners of the thread are told. */
  end(threadId: string): void {
    const forget = this.#inFlight.get(threadId);
    if (!forget) return;
    forget();
    this.#inFlight.delete(threadId);
    for (const listener of [...(this.#idleListeners.get(threadId) ?? [])]) listener();
  }

  /** Calls `listener` each time a run of the thread ends; returns the function that removes it. */
  onIdle(threadId: string, listener: IdleListener): () => void {
    const listeners = this.#idleListeners.get(threadId) ?? new Set<IdleListener>();
    listeners.add(listener);
    this.#idleListeners.set(threadId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#idleListeners.delete(threadId);
    };
  }
}
