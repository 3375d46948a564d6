// attachChildProcessBridge (KILL-17 … KILL-20): forwards the host's termination signals to a child process.
import type { ChildProcess } from "node:child_process";

export interface ChildProcessBridgeOptions {
  /** Replaces the default set: SIGTERM, SIGINT, SIGHUP, SIGQUIT (Windows: SIGTERM, SIGINT, SIGBREAK). */
  signals?: NodeJS.Signals[];
  /** Called with each signal before it is forwarded. */
  onSignal?: (signal: NodeJS.Signals) => void;
}

export interface ChildProcessBridge {
  /** Removes every listener; idempotent. */
  detach(): void;
}

export const DEFAULT_BRIDGE_SIGNALS: readonly NodeJS.Signals[] = process.platform === "win32"
  ? ["SIGTERM", "SIGINT", "SIGBREAK"]
  : ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

/**
 * While attached, each listed signal received by this process is forwarded to `child`; the listeners replace
 * Node's default exit-on-signal, so deciding when the host exits stays with the application (KILL-20).
 */
export function attachChildProcessBridge(
  child: Pick<ChildProcess, "kill" | "once" | "off">, options: ChildProcessBridgeOptions = {},
): ChildProcessBridge {
  const signals = options.signals ?? [...DEFAULT_BRIDGE_SIGNALS];
  const listeners = new Map<NodeJS.Signals, () => void>();
  let attached = true;
  const detach = (): void => {
    if (!attached) return;
    attached = false;
    for (const [signal, listener] of listeners) process.off(signal, listener);
    listeners.clear();
    for (const event of ["exit", "error", "close"] as const) child.off(event, detach);
  };
  for (const signal of signals) {
    const listener = (): void => {
      options.onSignal?.(signal);
      try {
        child.kill(signal);
      } catch {
        // KILL-19: errors of child.kill are ignored
      }
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
  }
  for (const event of ["exit", "error", "close"] as const) child.once(event, detach);
  return { detach };
}
