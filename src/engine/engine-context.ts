// What the actions of one engine share: resolved settings, the registry, the notifier and the options.
import type { ExecDedupe } from "./exec/exec-dedupe.js";
import type { ExitNotifier } from "./exit-notifier.js";
import type { Session } from "./session.js";
import type { SessionRegistry } from "./session-registry.js";
import type { Settings } from "./settings.js";
import type { LocalBackends } from "./spawn/faults.js";
import type { HostExecutor } from "./types.js";
import type { WatchRegistry } from "./watch/watch-registry.js";

export interface EngineContext {
  readonly settings: Settings;
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  readonly executors: { sandbox?: HostExecutor; node?: HostExecutor };
  /** How commands run on the local machine: pipes or a terminal. */
  readonly backends: LocalBackends;
  readonly registry: SessionRegistry;
  readonly notifier: ExitNotifier;
  /** The watches of every session (issue 34). */
  readonly watches: WatchRegistry;
  /** Retry dedupe (issue 34); `enabled` false when dedupeWindowMs is 0. */
  readonly dedupe: ExecDedupe;
  /** Throws the KILL-15 error after dispose(). */
  assertNotDisposed(): void;
  /** Registers a new running session with a fresh id (EXEC-32, ID-02). */
  createSession(command: string, scopeKey: string, cwd: string): Session;
}
