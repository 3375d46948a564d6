// The marker variable every local session's processes inherit, so that termination also reaches processes that
// left the session's process group (`setsid`, double forks). Linux only: they are found through /proc/<pid>/environ.
// Limits: a process that starts with a cleared or rewritten environment (`env -i`) does not carry the marker, and
// on other platforms nothing is found, so only the process group is signalled there.
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { sendSignal } from "./process-tree.js";

/** The variable's name: set on every local command, after `env` overrides, so a call cannot change it. */
export const SESSION_MARKER_VARIABLE = "EXEC_PROCESS_SESSION";
const ENGINE_TOKEN_BYTES = 6;

/** A token unique to one engine; a session's marker is `<token>-<registration number>`, never reused. */
export function createEngineToken(): string {
  return randomBytes(ENGINE_TOKEN_BYTES).toString("hex");
}

/** Processes other than this one whose environment holds the marker. */
export function markedProcesses(marker: string): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const needle = `${SESSION_MARKER_VARIABLE}=${marker}`;
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(needle)) found.push(Number(name));
    } catch {
      // gone, or not ours to read (then not ours to signal either)
    }
  }
  return found;
}

/**
 * Sends `signal` to every process that carries the marker and left the group or terminal session led by `leader`;
 * the members were signalled through the group already, and a second SIGTERM would run their traps twice.
 */
export function signalMarkedProcesses(marker: string, signal: NodeJS.Signals, leader: number | undefined): void {
  for (const pid of markedProcesses(marker)) {
    if (leader !== undefined && isInGroupOrSession(pid, leader)) continue;
    sendSignal(pid, signal);
  }
}

function isInGroupOrSession(pid: number, leader: number): boolean {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" "); // state ppid pgrp session …
    return Number(fields[2]) === leader || Number(fields[3]) === leader;
  } catch {
    return true; // gone
  }
}
