// An ExecutorProcess whose events may start before the engine subscribes: output and exit are queued, then
// delivered on a later turn of the event loop, after the engine attached the process to its session (so terminal
// output is inspected as terminal output, INPUT-16).
import type { ExecutorProcess } from "../engine/index.js";

type OutputListener = (stream: "stdout" | "stderr", chunk: string | Uint8Array) => void;
type ExitListener = (code: number | null, signal: string | null) => void;

/** The producing side: what an executor's transport calls as the remote or sandboxed process runs. */
export interface ProcessEvents {
  output(stream: "stdout" | "stderr", chunk: string | Uint8Array): void;
  /** Once, after all output. Later calls are ignored. */
  exit(code: number | null, signal: string | null): void;
}

type QueuedEvent = { output: Parameters<OutputListener> } | { exit: Parameters<ExitListener> };

export function createQueuedProcess(): { process: ExecutorProcess; events: ProcessEvents } {
  const queue: QueuedEvent[] = [];
  let outputListener: OutputListener | undefined;
  let exitListener: ExitListener | undefined;
  let live = false;
  let scheduled = false;
  let exited = false;
  const deliver = (event: QueuedEvent): void => {
    if ("output" in event) outputListener?.(...event.output);
    else exitListener?.(...event.exit);
  };
  const goLive = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      live = true;
      for (const event of queue.splice(0)) deliver(event);
    });
  };
  const emit = (event: QueuedEvent): void => {
    if (live) deliver(event);
    else queue.push(event);
  };
  const process: ExecutorProcess = {
    onOutput(listener) {
      outputListener = listener;
      goLive();
    },
    onExit(listener) {
      exitListener = listener;
      goLive();
    },
  };
  const events: ProcessEvents = {
    output(stream, chunk) {
      if (!exited) emit({ output: [stream, chunk] });
    },
    exit(code, signal) {
      if (exited) return;
      exited = true;
      emit({ exit: [code, signal] });
    },
  };
  return { process, events };
}
