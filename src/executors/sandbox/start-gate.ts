// Holds graceful signals until the sandbox's supervisor runs the shell. Before that, a SIGTERM sent inside reaches
// only a supervisor that is still booting (and dies of it, reported as bwrap's 128+15) or one that ignores it while
// it starts the shell (which then runs on until SIGKILL after the grace period, KILL-08).

/** How often a held signal checks whether the shell has started. */
const START_CHECK_EVERY_MS = 5;

export interface StartGate {
  /** Runs `action` now when the shell has started, else once it has; dropped if the gate closes first. */
  run(action: () => void): void;
  /** Resolves once the shell has started, or the sandbox ended before it did. */
  settled(): Promise<void>;
  /** The sandbox ended: held actions are dropped and the check stops. */
  close(): void;
}

export function createStartGate(hasStarted: () => boolean): StartGate {
  let held: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const settledWaiters: Array<() => void> = [];
  const stopChecking = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const release = (): void => {
    if (!hasStarted()) return;
    stopChecking();
    for (const action of held.splice(0)) action();
    for (const resolve of settledWaiters.splice(0)) resolve();
  };
  return {
    run(action) {
      if (closed) return;
      held.push(action);
      release();
      if (held.length === 0 || timer !== undefined) return;
      timer = setInterval(release, START_CHECK_EVERY_MS);
      timer.unref(); // the sandbox's own process keeps the host alive as long as it should
    },
    settled() {
      if (closed || hasStarted()) return Promise.resolve();
      return new Promise((resolve) => {
        settledWaiters.push(resolve);
        if (timer === undefined) {
          timer = setInterval(release, START_CHECK_EVERY_MS);
          timer.unref();
        }
      });
    },
    close() {
      closed = true;
      held = [];
      stopChecking();
      for (const resolve of settledWaiters.splice(0)) resolve();
    },
  };
}
