// src/engine/spawn/session-marker.ts: the marker variable that lets termination reach a session's processes that left
// its process group (setsid, double forks); Linux only. One /proc scan serves every marker signalled in the same
// synchronous run (ending 200 sessions at once used to read every process's environment 200 times).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createEngineToken, markedProcesses, SESSION_MARKER_VARIABLE, signalMarkedProcesses,
} from "../../src/engine/spawn/session-marker.js";
import { isProcessAlive, killGroup, waitForGroupsGone, waitUntil } from "../reliability/helpers.js";

vi.mock("node:fs", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs")>();
  return { ...original, readdirSync: vi.fn(original.readdirSync) };
});

const children: ChildProcess[] = [];
afterEach(async () => {
  const groups = children.splice(0).map((child) => child.pid ?? 0);
  for (const pgid of groups) killGroup(pgid);
  await waitForGroupsGone(groups);
});

/** A detached `sleep` (leader of its own group) that carries `marker`. */
async function markedSleep(marker: string): Promise<number> {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore", env: { ...process.env, [SESSION_MARKER_VARIABLE]: marker } });
  children.push(child);
  const pid = child.pid ?? 0;
  expect(await waitUntil(() => markedProcesses(marker).includes(pid), 10_000)).toBe(true);
  return pid;
}

describe("createEngineToken", () => {
  it("makes a 12-digit hex token that differs between engines", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => createEngineToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe.runIf(process.platform === "linux")("marked processes", () => {
  it("finds exactly the processes whose environment holds the marker", async () => {
    const marker = `${createEngineToken()}-1`;
    const pid = await markedSleep(marker);
    expect(markedProcesses(marker)).toEqual([pid]);
    expect(markedProcesses(`${marker}0`)).toEqual([]); // a longer marker is another session
  }, 30_000);

  it("skips a marked process that is in the leader's group, which the group signal reached already", async () => {
    const marker = `${createEngineToken()}-2`;
    const leader = await markedSleep(marker);
    const outside = await markedSleep(marker); // same marker, a group of its own: the one that is signalled
    signalMarkedProcesses(marker, "SIGKILL", leader);
    expect(await waitUntil(() => !isProcessAlive(outside), 10_000)).toBe(true);
    expect(isProcessAlive(leader)).toBe(true);
  }, 30_000);

  it("signals a marked process that left the leader's group", async () => {
    const marker = `${createEngineToken()}-3`;
    const pid = await markedSleep(marker);
    signalMarkedProcesses(marker, "SIGKILL", process.pid);
    expect(await waitUntil(() => !isProcessAlive(pid), 10_000)).toBe(true);
  }, 30_000);
});

const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A `sleep` carrying `marker`, in a process group of its own (so no leader filter applies). */
async function markedSleeper(marker: string): Promise<ChildProcess> {
  const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore", env: { PATH: process.env["PATH"], [SESSION_MARKER_VARIABLE]: marker } });
  started.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child;
}

const endSignal = (child: ChildProcess): Promise<NodeJS.Signals | null> =>
  new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));

const procScans = (): number => vi.mocked(fs.readdirSync).mock.calls.filter(([path]) => path === "/proc").length;

describe.runIf(process.platform === "linux")("one /proc scan per synchronous run", () => {
  it("signals the processes of every marker given in one synchronous run, reading /proc once", async () => {
    const token = createEngineToken();
    const first = await markedSleeper(`${token}-1`);
    const second = await markedSleeper(`${token}-2`);
    const longer = await markedSleeper(`${token}-10`); // not `${token}-1`: markers match exactly
    const ends = [endSignal(first), endSignal(second)];
    const scansBefore = procScans();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    signalMarkedProcesses(`${token}-2`, "SIGTERM", undefined);
    expect(procScans() - scansBefore).toBe(1);
    expect(await Promise.all(ends)).toEqual(["SIGTERM", "SIGTERM"]);
    expect(longer.exitCode).toBeNull();
    expect(longer.signalCode).toBeNull();
  });

  it("reads /proc again after the synchronous run, and then finds processes started since", async () => {
    const token = createEngineToken();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    await Promise.resolve();
    const later = await markedSleeper(`${token}-1`);
    const end = endSignal(later);
    const scansBefore = procScans();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    expect(procScans() - scansBefore).toBe(1);
    expect(await end).toBe("SIGTERM");
  });
});
