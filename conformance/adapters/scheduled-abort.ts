// The abort of a scenario's call (CallOptions.abortAfterMs): a signal that fires that long after the call starts, at
// once for 0 or less, never without it. Shared by the adapters that call tools in this process or as a client.

export interface ScheduledAbort {
  readonly signal: AbortSignal;
  /** Drops a pending abort once the call has ended. */
  cancel(): void;
}

export function scheduleAbort(abortAfterMs: number | undefined): ScheduledAbort {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  if (abortAfterMs !== undefined) {
    if (abortAfterMs <= 0) controller.abort();
    else timer = setTimeout(() => controller.abort(), abortAfterMs);
  }
  return { signal: controller.signal, cancel: () => clearTimeout(timer) };
}
