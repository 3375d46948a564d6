// The sessions that run a command, as /proc shows them: the distinct values of the session marker variable
// (EXEC_PROCESS_SESSION) among the processes whose command line holds a probe text. One value = one started job.
import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { SESSION_MARKER_VARIABLE } from "../../../src/engine/spawn/session-marker.js";

export function markersRunning(probe: string): string[] {
  const markers = new Set<string>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, "latin1").includes(probe)) continue;
      const entry = readFileSync(`/proc/${name}/environ`, "latin1").split("\0")
        .find((line) => line.startsWith(`${SESSION_MARKER_VARIABLE}=`));
      if (entry !== undefined) markers.add(entry.slice(SESSION_MARKER_VARIABLE.length + 1));
    } catch {
      // the process ended meanwhile
    }
  }
  return [...markers];
}

/** A command that sleeps `seconds` and prints a probe text no other test's command holds. */
export function probeCommand(seconds: number): { probe: string; command: string } {
  const probe = `dedupe-probe-${randomUUID()}`;
  return { probe, command: `sleep ${seconds}; echo ${probe} done` };
}
