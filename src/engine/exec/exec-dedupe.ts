// Retry dedupe (issue 34, opt-in with the engine option dedupeWindowMs): an exec identical to a running one of the
// same scope, started within the window, joins that job instead of starting a second process.
import type { Session } from "../session.js";
import type { NormalizedExec } from "./normalize-exec.js";

export class ExecDedupe {
  readonly #windowMs: number;
  /** The running sessions that a retry may join, by the key of their call. */
  readonly #jobs = new Map<string, Session>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  get enabled(): boolean {
    return this.#windowMs > 0;
  }

  /** What makes two calls the same job: scope, command, working directory, env overrides, host, node, pty, elevation. */
  keyOf(call: NormalizedExec, cwd: string, envOverrides: Record<string, string>, scopeKey: string): string {
    const env = Object.entries(envOverrides).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return JSON.stringify([scopeKey, call.command, cwd, env, call.executor?.host ?? "local", call.node ?? null, call.pty, call.elevated]);
  }

  /** The running job of this key started within the window and still reachable by its exec call or by process. */
  find(key: string, now = Date.now()): Session | undefined {
    const session = this.#jobs.get(key);
    if (!session) return undefined;
    const joinable = session.state === "running" && session.addressable && now - session.startedAt <= this.#windowMs;
    return joinable ? session : undefined;
  }

  /** Remembers a new job under its key until it ends. */
  remember(key: string, session: Session): void {
    this.#jobs.set(key, session);
    session.onComplete(() => {
      if (this.#jobs.get(key) === session) this.#jobs.delete(key);
    });
  }
}
