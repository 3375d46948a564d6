// Ends the sessions of every engine when the host process ends, like execa's `cleanup`: exit hooks come from
// signal-exit, which also re-raises a signal the host does not handle itself so that the host dies by it.
import { onExit } from "signal-exit";

/** What an engine hands over so its sessions can be ended when the host ends. */
export interface HostExitTarget {
  /** Synchronously sends SIGKILL to every live process group of the engine: the host is about to be gone. */
  killNow(): void;
  /** Starts the normal termination of every live session (KILL-08): SIGTERM now, SIGKILL after the grace. */
  terminateAll(): void;
}

/** The signals that end a host by default and that a service manager or a terminal sends. */
const HOST_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
type HostSignal = (typeof HOST_SIGNALS)[number];

const targets = new Set<HostExitTarget>();
let removeExitHook: (() => void) | undefined;
let signalsInstalled = false;

/** Registers an engine's sessions for host-end cleanup; returns the function that unregisters them. */
export function cleanupOnHostExit(target: HostExitTarget): () => void {
  targets.add(target);
  install();
  return () => {
    if (!targets.delete(target) || targets.size > 0) return;
    removeSignalListeners();
    removeExitHook?.();
    removeExitHook = undefined;
  };
}

function install(): void {
  // process.exit(), an uncaught exception, the end of the event loop, or a signal signal-exit re-raises.
  removeExitHook ??= onExit(() => {
    for (const target of [...targets]) ignoreErrors(() => target.killNow());
  });
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of HOST_SIGNALS) process.on(signal, onHostSignal);
}

function removeSignalListeners(): void {
  if (!signalsInstalled) return;
  signalsInstalled = false;
  for (const signal of HOST_SIGNALS) process.removeListener(signal, onHostSignal);
}

/**
 * Terminates every session, then leaves the decision to the host: with a handler of its own, the host goes on as
 * that handler decides. Without one, ours is removed and the signal raised again, so that signal-exit (now the only
 * listener) runs the exit hook and re-raises it, and the host ends exactly as it would have without the engine.
 */
function onHostSignal(signal: HostSignal): void {
  for (const target of [...targets]) ignoreErrors(() => target.terminateAll());
  if (hostHandlerCount(signal) > 0) return;
  removeSignalListeners();
  process.kill(process.pid, signal);
}

/** Listeners of `signal` that are neither ours nor signal-exit's (one per loaded copy, counted on its emitter). */
function hostHandlerCount(signal: HostSignal): number {
  const emitters = globalThis as { [key: symbol]: { count?: unknown } | undefined };
  const legacy = (process as { __signal_exit_emitter__?: { count?: unknown } }).__signal_exit_emitter__;
  const signalExitCount = countOf(emitters[Symbol.for("signal-exit emitter")]) + countOf(legacy);
  return process.listeners(signal).length - 1 - signalExitCount;
}

const countOf = (emitter: { count?: unknown } | undefined): number =>
  typeof emitter?.count === "number" ? emitter.count : 0;

function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // one engine's failure must not keep the others' sessions alive
  }
}
