// Adapts a registered host executor's process to the engine's child shape (EXEC-09).
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../types.js";
import type { ChildHandle, ChildSink } from "./child-handle.js";
import { TerminalOutput } from "./terminal-output.js";

export async function spawnWithExecutor(
  executor: HostExecutor, request: ExecutorSpawnRequest, sink: ChildSink,
): Promise<ChildHandle> {
  const process: ExecutorProcess = await executor.spawn(request);
  let completed = false;
  const { stdin, kill, reply } = process;
  // A remote terminal's queries are answered through the executor, when it can (INPUT-16); a terminal the executor
  // reads itself (it reports the cursor-key mode) was inspected there already.
  const ownTerminal = "cursorKeyMode" in process;
  const terminal = request.pty && !ownTerminal ? new TerminalOutput((data) => reply?.call(process, data)) : undefined;
  process.onOutput((stream, chunk) => {
    if (completed) return;
    // A copy: the engine keeps plain byte chunks undecoded, and an executor may reuse its buffers.
    if (typeof chunk !== "string") sink.onOutput(stream, chunk.slice());
    else sink.onOutput(stream, terminal ? terminal.read(chunk) : chunk);
  });
  process.onExit((code, signal) => {
    if (completed) return;
    completed = true;
    sink.onExit();
    sink.onComplete(code, signal);
  });
  return {
    pid: process.pid,
    pty: request.pty,
    get cursorKeyMode() {
      return (ownTerminal ? process.cursorKeyMode : terminal?.cursorKeyMode) ?? "normal";
    },
    stdin,
    signal: kill ? (signal) => kill.call(process, signal) : undefined,
    release() {},
  };
}
