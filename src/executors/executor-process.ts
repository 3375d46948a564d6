// An ExecutorProcess whose events may start before the engine subscribes: output and exit are queued until then.
import type { ExecutorProcess } from "../engine/types.js";

type OutputListener = (stream: "stdout" | "stderr", chunk: string | Uint8Array) => void;
type ExitListener = (code: number | null, signal: string | null) => void;

/** The producing side: what an executor's transport calls as the remote or sandboxed process runs. */
export interface ProcessEvents {
  output(stream: "stdout" | "stderr", chunk: string | Uint8Array): void;
  /** Once, after all output. Later calls are ignored. */
  exit(code: number | null, signal: string | null): void;
}

export function createQueuedProcess(): { process: ExecutorProcess; events: ProcessEvents } {
  const pendingOutput: Array<Parameters<OutputListener>> = [];
  let pendingExit: Parameters<ExitListener> | undefined;
  let outputListener: OutputListener | undefined;
  let exitListener: ExitListener | undefined;
  let exited = false;
  const process: ExecutorProcess = {
    onOutput(listener) {
      outputListener = listener;
      for (const [stream, chunk] of pendingOutput.splice(0)) listener(stream, chunk);
    },
    onExit(listener) {
      exitListener = listener;
      if (pendingExit) listener(...pendingExit);
    },
  };
  const events: ProcessEvents = {
    output(stream, chunk) {
      if (exited) return;
      if (outputListener) outputListener(stream, chunk);
      else pendingOutput.push([stream, chunk]);
    },
    exit(code, signal) {
      if (exited) return;
      exited = true;
      if (exitListener) exitListener(code, signal);
      else pendingExit = [code, signal];
    },
  };
  return { process, events };
}
