// What a session host killed with SIGKILL left running (issue 33): its jobs carry its instance id in their
// environment (HOST_DEFAULTS.instanceEnv), and its socket's state file names it. The next host started on the same
// socket ends them before it listens. Linux only (/proc); a job that cleared its environment escapes this sweep.
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { signalProcess } from "../engine/index.js";
import { HOST_DEFAULTS } from "./host-options.js";

/** The file beside a socket that names the instance listening on it, while it does. */
export const instanceFileOf = (socketPath: string): string => `${socketPath}.instance`;

/** Ends the jobs of the instance the state file names, if any; writes this instance's id there. Returns how many. */
export function takeOverSocket(socketPath: string, instanceId: string): number {
  const file = instanceFileOf(socketPath);
  let ended = 0;
  try {
    const previous = readFileSync(file, "utf8").trim();
    if (previous !== "") ended = endJobsOf(previous);
  } catch {
    // no predecessor, or one that ended cleanly (its file is gone)
  }
  rmSync(file, { force: true });
  writeFileSync(file, `${instanceId}\n`, { mode: 0o600, flag: "wx" });
  return ended;
}

/** SIGKILL to every process whose environment carries the instance id. */
function endJobsOf(instanceId: string): number {
  const entry = `${HOST_DEFAULTS.instanceEnv}=${instanceId}`;
  let ended = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(entry)) continue;
    } catch {
      continue; // gone, or not this user's
    }
    signalProcess(Number(name), "SIGKILL");
    ended += 1;
  }
  return ended;
}
