// src/engine/spawn/process-tree.ts: the Linux process table read to reach what a plain group kill would miss
// (EXEC-46, PTY-08): descendants, groups of a terminal session, and who holds a descriptor.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  descriptorTargets, processesHolding, processGroupMembers, processGroupsOfSession, processTree, sendSignal, sessionMembers,
} from "../../src/engine/spawn/process-tree.js";
import { isProcessAlive, killGroup, readProcTable, waitForGroupsGone, waitUntil } from "../reliability/helpers.js";

const children: ChildProcess[] = [];
afterEach(async () => {
  const groups = children.splice(0).map((child) => child.pid ?? 0);
  for (const pgid of groups) killGroup(pgid);
  await waitForGroupsGone(groups);
});

/** A detached shell (leader of its own session and group) that starts two sleeping children. */
async function shellWithChildren(): Promise<{ pid: number; kids: number[] }> {
  const child = spawn("/bin/sh", ["-c", "sleep 30 & sleep 30 & wait"], { detached: true, stdio: "ignore" });
  children.push(child);
  const pid = child.pid ?? 0;
  const kids = () => readProcTable().filter((p) => p.ppid === pid).map((p) => p.pid);
  expect(await waitUntil(() => kids().length === 2, 10_000)).toBe(true);
  return { pid, kids: kids() };
}

describe.runIf(process.platform === "linux")("process-tree", () => {
  it("finds a process and all of its descendants", async () => {
    const { pid, kids } = await shellWithChildren();
    expect(processTree(pid).sort()).toEqual([pid, ...kids].sort());
  }, 30_000);

  it("lists the live members of a process group", async () => {
    const { pid, kids } = await shellWithChildren();
    expect(processGroupMembers(pid).sort()).toEqual([pid, ...kids].sort());
  }, 30_000);

  it("finds the groups and members of a terminal session by its leader", () => {
    const self = readProcTable().find((p) => p.pid === process.pid);
    const sid = self?.sid ?? -1;
    expect(processGroupsOfSession(sid)).toContain(self?.pgid);
    expect(sessionMembers(sid)).toContainEqual({ pid: process.pid, ppid: self?.ppid });
  });

  it("signals a live process and ignores one that is already gone", async () => {
    const { pid, kids } = await shellWithChildren();
    const [kid] = kids;
    sendSignal(kid ?? 0, "SIGKILL");
    expect(await waitUntil(() => !isProcessAlive(kid ?? 0), 10_000)).toBe(true);
    sendSignal(kid ?? 0, "SIGKILL"); // gone now: ESRCH is swallowed
    sendSignal(-pid, "SIGKILL");
    expect(await waitForGroupsGone([pid])).toEqual([]);
  }, 30_000);

  it("names what descriptors point at, leaving out the unreadable ones", () => {
    const targets = descriptorTargets(process.pid, [0, 1, 2, 987_654]);
    expect(targets.length).toBe(3);
    expect(descriptorTargets(2 ** 22 + 12_345, [0])).toEqual([]);
  });

  it("finds the other processes that hold a descriptor target, never this one", async () => {
    const child = spawn("/bin/sh", ["-c", "sleep 30"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    children.push(child);
    const pid = child.pid ?? 0;
    expect(await waitUntil(() => descriptorTargets(pid, [1]).length === 1, 10_000)).toBe(true);
    const target = new Set(descriptorTargets(pid, [1]));
    expect(processesHolding(target)).toContain(pid);
    expect(processesHolding(target)).not.toContain(process.pid);
    expect(processesHolding(new Set())).toEqual([]);
    child.stdout?.destroy();
  }, 30_000);
});
