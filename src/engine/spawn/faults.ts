// Faults injected on purpose (the conformance kit's `faults` capability): each makes one local spawn backend fail,
// so that the fallback and error paths of PTY-05, PTY-06 and INPUT-07 can be checked for real.
import { ExecProcessError } from "../errors.js";
import type { ChildHandle, ChildSink, SpawnRequest, StdinHandle } from "./child-handle.js";

export interface SpawnFaults {
  /** The PTY backend cannot start a terminal; the error carries this message (PTY-05). */
  ptyUnavailable?: string;
  /** No plain child process can be started either; the error carries this message (PTY-06, RES-24). */
  spawnUnavailable?: string;
  /** Every write to a session's input fails with this error message (INPUT-07). */
  stdinWriteError?: string;
}

export interface LocalBackends {
  pipes(request: SpawnRequest, sink: ChildSink): Promise<ChildHandle>;
  pty(request: SpawnRequest, sink: ChildSink): Promise<ChildHandle>;
}

/** The backends with the given faults applied; without faults, the backends themselves. */
export function withFaults(backends: LocalBackends, faults: SpawnFaults | undefined): LocalBackends {
  if (!faults) return backends;
  const { ptyUnavailable, spawnUnavailable, stdinWriteError } = faults;
  return {
    async pipes(request, sink) {
      if (spawnUnavailable !== undefined) throw new ExecProcessError({ code: "spawn-failed", reason: spawnUnavailable });
      return withFailingStdin(await backends.pipes(request, sink), stdinWriteError);
    },
    async pty(request, sink) {
      if (ptyUnavailable !== undefined) throw new ExecProcessError({ code: "pty-unavailable", reason: ptyUnavailable });
      return withFailingStdin(await backends.pty(request, sink), stdinWriteError);
    },
  };
}

function withFailingStdin(handle: ChildHandle, message: string | undefined): ChildHandle {
  const stdin = handle.stdin;
  if (message === undefined || !stdin) return handle;
  const failing: StdinHandle = {
    write: async () => {
      throw new ExecProcessError({ code: "stdin-write-failed", reason: message });
    },
    end: () => stdin.end(),
    get writable() {
      return stdin.writable;
    },
  };
  return new Proxy(handle, { get: (target, key) => (key === "stdin" ? failing : Reflect.get(target, key, target)) });
}
