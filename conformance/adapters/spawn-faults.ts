// The kit's fault requests (FaultSpec) as the engine's SpawnFaults: a module of its own, so that the session host's
// factory process (session-host-factory.ts) takes them without loading the reference adapter and LangChain.
import type { FaultSpec } from "../adapter.js";
import type { SpawnFaults } from "../../src/engine/index.js";

export function spawnFaults({ ptyUnavailable, spawnUnavailable, stdinWriteError }: FaultSpec): SpawnFaults {
  return {
    ...(ptyUnavailable !== undefined ? { ptyUnavailable } : {}),
    ...(spawnUnavailable !== undefined ? { spawnUnavailable } : {}),
    ...(stdinWriteError !== undefined ? { stdinWriteError } : {}),
  };
}
