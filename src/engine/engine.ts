// createSessionEngine: wires settings, registry, notifier and the two actions; owns disposal (KILL-14 … KILL-16).
import { ExecDedupe } from "./exec/exec-dedupe.js";
import { ExitNotifier } from "./exit-notifier.js";
import { cleanupOnHostExit } from "./host-exit-cleanup.js";
import type { EngineContext } from "./engine-context.js";
import { runExec } from "./exec/run-exec.js";
import { ExecProcessError } from "./errors.js";
import { runProcess } from "./process/run-process.js";
import { Session } from "./session.js";
import { createSessionId } from "./session-id.js";
import { createEngineToken } from "./spawn/session-marker.js";
import { SessionRegistry } from "./session-registry.js";
import { resolveSettings } from "./settings.js";
import { withFaults } from "./spawn/faults.js";
import { spawnWithPipes } from "./spawn/pipe-backend.js";
import { spawnWithPty } from "./spawn/pty-backend.js";
import type { LocalSessionEngine, SessionEngineOptions } from "./types.js";
import { runWatch } from "./watch/run-watch.js";
import { WatchRegistry } from "./watch/watch-registry.js";

/** Creates an engine with its own settings and registry; nothing is shared between engines (REG-01, SET-03). */
export function createSessionEngine(options: SessionEngineOptions = {}): LocalSessionEngine {
  const env = { ...(options.env ?? process.env) };
  const settings = resolveSettings({
    config: options.config, env, ...(options.inputWaitIdleMs !== undefined ? { inputWaitIdleMs: options.inputWaitIdleMs } : {}),
    ...(options.dedupeWindowMs !== undefined ? { dedupeWindowMs: options.dedupeWindowMs } : {}),
  });
  const notifier = new ExitNotifier({
    notifyOnExit: settings.notifyOnExit, notifyOnExitEmptySuccess: settings.notifyOnExitEmptySuccess,
    onSystemEvent: options.onSystemEvent, onWake: options.onWake,
  });
  // A queued event whose record is gone names an id no action can resolve: it goes with the record (REG-10).
  const watches = new WatchRegistry(notifier, settings);
  const registry = new SessionRegistry({ onRecordDeleted: (session) => notifier.dropEventOf(session) });
  let disposing: Promise<void> | undefined;
  const markerToken = createEngineToken();
  const stopHostExitCleanup = options.cleanup === false ? undefined : cleanupOnHostExit({
    killNow: () => {
      for (const session of registry.activeSessions()) session.killNow();
    },
    terminateAll: () => {
      for (const session of registry.activeSessions()) session.terminate("manual-cancel");
    },
  });

  const context: EngineContext = {
    settings,
    cwd: options.cwd ?? process.cwd(),
    env,
    executors: { ...options.executors },
    backends: withFaults({ pipes: spawnWithPipes, pty: spawnWithPty }, options.faults),
    registry,
    notifier,
    watches,
    dedupe: new ExecDedupe(settings.dedupeWindowMs),
    assertNotDisposed() {
      if (disposing) throw new ExecProcessError({ code: "engine-disposed" });
    },
    createSession(command, scopeKey, cwd) {
      const seq = registry.nextSeq();
      const session = new Session({
        id: createSessionId((id) => registry.isTaken(id)), seq, command, scopeKey, cwd,
        aggregateCap: settings.maxOutputChars, pendingCap: settings.pendingMaxOutputChars, ttlMs: settings.jobTtlMs,
        marker: `${markerToken}-${seq}`,
      });
      registry.add(session);
      session.onComplete((done) => {
        if (!disposing) notifier.sessionCompleted(done);
      });
      return session;
    },
  };

  return {
    exec: async (params, ctx) => runExec(params, ctx, context),
    process: async (params, ctx) => runProcess(params, ctx, context),
    watch: async (params, ctx) => runWatch(params, ctx, context, watches),
    drainSystemEvents: (scopeKey) => notifier.drain(scopeKey),
    peekSystemEvents: (scopeKey) => notifier.peek(scopeKey),
    clearFinishedSessions: (scopeKey) => registry.clearFinished(scopeKey),
    liveSessionIds: () => registry.liveIds(),
    addWakeListener: (listener) => {
      if (disposing) {
        listener.onDispose?.();
        return () => undefined;
      }
      return notifier.addWakeListener(listener);
    },
    get disposed() {
      return disposing !== undefined;
    },
    dispose() {
      disposing ??= disposeAll(registry, notifier, watches).finally(() => stopHostExitCleanup?.());
      return disposing;
    },
  };
}

/** Terminates every live process at once and resolves when all have completed (KILL-14, KILL-16). */
async function disposeAll(registry: SessionRegistry, notifier: ExitNotifier, watches: WatchRegistry): Promise<void> {
  notifier.dispose();
  watches.dispose();
  const sessions = registry.activeSessions();
  for (const session of sessions) {
    if (!session.terminate("manual-cancel")) session.abandon(); // no handle: nothing more we can do
  }
  await Promise.all(sessions.map((session) => session.completed));
  registry.dispose();
}
