// The liveness check of the leftover sweep (issue 32): an owner is gone only when it is of this boot and pid
// namespace and its pid is unused or reused by a later process; a look-alike elsewhere is never judged gone.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { ownerGone, ownerId } from "../../src/executors/container/container-leftovers.js";

const startOf = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
};

it("names this process by boot, pid namespace, pid and start time, and knows it alive", () => {
  const [boot, namespace, pid, started] = ownerId().split("/");
  expect(boot).toBe(readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
  expect(namespace).toMatch(/^\d+$/);
  expect([pid, started]).toEqual([String(process.pid), startOf(process.pid)]);
  expect(ownerGone(ownerId())).toBe(false);
});

it("judges gone a finished owner and a pid reused by a later process; never one of another namespace or boot", async () => {
  const [boot, namespace] = ownerId().split("/");
  const finished = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim();
  expect(ownerGone(`${boot}/${namespace}/${finished}/12345`)).toBe(true);
  const live = spawn("sleep", ["30"]);
  try {
    await new Promise((resolve) => live.once("spawn", resolve));
    const pid = live.pid!;
    expect(ownerGone(`${boot}/${namespace}/${pid}/${startOf(pid)}`)).toBe(false);
    expect(ownerGone(`${boot}/${namespace}/${pid}/1`)).toBe(true); // the pid now names another process
    // A pod with the host's hostname but its own pid namespace, or another boot: its pids mean nothing here.
    expect(ownerGone(`${boot}/1/${finished}/12345`)).toBe(false);
    expect(ownerGone(`00000000-0000-0000-0000-000000000000/${namespace}/${finished}/12345`)).toBe(false);
  } finally {
    live.kill("SIGKILL");
  }
  expect(ownerGone(`${"vm"}:${finished}`)).toBe(false); // the old hostname:pid form
  expect(ownerGone(undefined)).toBe(false);
});
