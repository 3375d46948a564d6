// Adapts a registered host executor's process to the engine's child shape (EXEC-09).
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../types.js";
import type { ChildHandle, ChildSink } from "./child-handle.js";

export async function spawnWithExecutor(
  executor: HostExecutor, request: ExecutorSpawnRequest, sink: ChildSink,
): Promise<ChildHandle> {
  const process: ExecutorProcess = await executor.spawn(request);
  let completed = false;
  process.onOutput((stream, chunk) => {
    // A copy: the engine keeps plain byte chunks undecoded, and an executor may reuse its buffers.
    if (!completed) sink.onOutput(stream, typeof chunk === "string" ? chunk : chunk.slice());
  });
  process.onExit((code, signal) => {
    if (completed) return;
    completed = true;
    sink.onExit();
    sink.onComplete(code, signal);
  });
  const { stdin, kill, reply } = process;
  return {
    pid: process.pid,
    pty: request.pty,
    stdin,
    signal: kill ? (signal) => kill.call(process, signal) : undefined,
    ...(reply ? { reply: (data: string) => reply.call(process, data) } : {}),
    release() {},
  };
}
