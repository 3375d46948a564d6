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
  return markedProcessTable().get(marker) ?? [];
}

// One /proc scan serves every marker looked up in the same synchronous run: a dispose or host exit that ends 200
// sessions reads the table once, not 200 times (each read opens the environ of every process on the machine). The
// table is dropped at the next microtask checkpoint, so a later call sees processes started since.
let scannedTable: Map<string, number[]> | undefined;

function markedProcessTable(): Map<string, number[]> {
  if (scannedTable === undefined) {
    scannedTable = scanMarkedProcesses();
    queueMicrotask(() => (scannedTable = undefined));
  }
  return scannedTable;
}

/** Every process other than this one that carries a marker, by marker value. */
function scanMarkedProcesses(): Map<string, number[]> {
  const table = new Map<string, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return table;
  }
  const prefix = `${SESSION_MARKER_VARIABLE}=`;
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, "latin1");
    } catch {
      continue; // gone, or not ours to read (then not ours to signal either)
    }
    for (const entry of environ.split("\0")) {
      if (!entry.startsWith(prefix)) continue;
      const marker = entry.slice(prefix.length);
      const pids = table.get(marker) ?? [];
      if (!pids.includes(Number(name))) pids.push(Number(name));
      table.set(marker, pids);
    }
  }
  return table;
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
