// src/engine/spawn/session-marker.ts: the marker variable that lets termination reach a session's processes that left
// its process group (setsid, double forks); Linux only.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEngineToken, markedProcesses, SESSION_MARKER_VARIABLE, signalMarkedProcesses,
} from "../../src/engine/spawn/session-marker.js";
import { isProcessAlive, killGroup, waitForGroupsGone, waitUntil } from "../reliability/helpers.js";

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
    const pid = await markedSleep(marker);
    signalMarkedProcesses(marker, "SIGKILL", pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isProcessAlive(pid)).toBe(true);
  }, 30_000);

  it("signals a marked process that left the leader's group", async () => {
    const marker = `${createEngineToken()}-3`;
    const pid = await markedSleep(marker);
    signalMarkedProcesses(marker, "SIGKILL", process.pid);
    expect(await waitUntil(() => !isProcessAlive(pid), 10_000)).toBe(true);
  }, 30_000);
});
