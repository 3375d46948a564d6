// Builds a scripted host executor from its data description (capability "executor").
import type { ExecutorRequest, FakeExecutorSpec } from "../adapter.js";
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../../src/engine/index.js";

export function createFakeExecutor(host: "sandbox" | "node", spec: FakeExecutorSpec, seen: ExecutorRequest[]): HostExecutor {
  return {
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      seen.push({ host, ...request });
      if (spec.rejectWith !== undefined) throw new Error(spec.rejectWith);
      return startFakeProcess(spec);
    },
  };
}

function startFakeProcess(spec: FakeExecutorSpec): ExecutorProcess {
  const outputListeners: Array<(stream: "stdout" | "stderr", chunk: string) => void> = [];
  const exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  const timers: NodeJS.Timeout[] = [];
  let exited = false;
  const exit = (code: number | null, signal: string | null): void => {
    if (exited) return;
    exited = true;
    for (const timer of timers) clearTimeout(timer);
    for (const listener of exitListeners) listener(code, signal);
  };
  let at = 0;
  for (const chunk of spec.output ?? []) {
    at += chunk.delayMs ?? 0;
    timers.push(setTimeout(() => outputListeners.forEach((l) => l(chunk.stream, chunk.data)), at));
  }
  if (spec.exit) {
    const { code, signal } = spec.exit;
    timers.push(setTimeout(() => exit(code, signal), at + (spec.exit.delayMs ?? 0)));
  }
  const process: ExecutorProcess = {
    onOutput: (listener) => void outputListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
  };
  if (spec.pid !== undefined) process.pid = spec.pid;
  if (spec.killable !== false) {
    process.kill = (signal) => {
      if (!spec.ignoreSignals) timers.push(setTimeout(() => exit(null, signal), 10));
    };
  }
  return process;
}
