// A kit that is killed (a CI timeout, kill <pid>) leaves nothing running: its workers end once their kit is gone,
// and with them what their scenarios started. Ctrl-C needs none of this (it signals the whole process group); a
// signal to the kit's process alone left its workers running their scenarios, one of them for minutes.
// Nor does it leave a folder: not its temporary report folder, not a scenario's cwd and HOME (issue 35, item 4:
// each run of the tests left about four in /tmp). The kit gets a TMPDIR of its own, so that what it left is seen.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { processesWith } from "../executors/helpers.js";
import { isProcessAlive, killGroup, readProcTable, waitForGroupsGone, waitUntil } from "../reliability/helpers.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const TOKEN = `kit-killed-${process.pid}-${Date.now()}`;

// Two scenarios, so two workers, each with a background command of the reference adapter that would outlive the
// kit: its shell is found by the token in its command line, and the sleep by the shell's process group.
const FEATURE = `Feature: fixture

  @SET-01 @doc
  Scenario: one
    When exec is called with:
      """
      {"command": "sleep 60; : ${TOKEN}", "background": true}
      """
    And 60000 ms pass

  @SET-10 @doc
  Scenario: two
    When exec is called with:
      """
      {"command": "sleep 60; : ${TOKEN}", "background": true}
      """
    And 60000 ms pass
`;

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kit-killed-test-"));
  mkdirSync(join(dir, "features"));
  writeFileSync(join(dir, "features/fixture.feature"), FEATURE);
});
/** A fresh TMPDIR for one kit: what the kit's folders are made in. */
const kitTmpdir = (name: string): string => {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The process groups of the scenarios' commands, each once: a shell that has just forked for `sleep` shows its command
 * line in the fork too, until the fork execs.
 */
const commandGroups = (): number[] => {
  const shells = processesWith(TOKEN).map(({ pid }) => pid);
  return [...new Set(readProcTable().filter((entry) => shells.includes(entry.pid)).map((entry) => entry.pgid))];
};

/** The kit's worker processes: children of `kit` running cucumber's worker. */
const workersOf = (kit: number): number[] => {
  const children = new Set(readProcTable().filter((entry) => entry.ppid === kit).map((entry) => entry.pid));
  return processesWith("run_worker").map(({ pid }) => pid).filter((pid) => children.has(pid));
};

it("ends its workers and their sessions, and leaves no folder, when the kit alone is sent SIGTERM", async () => {
  const kitTmp = kitTmpdir("parallel");
  const kit = spawn(process.execPath, ["conformance/bin.mjs", "--parallel", "2", "--paths", join(dir, "features/fixture.feature")], {
    cwd: ROOT, stdio: "ignore", env: { ...process.env, TMPDIR: kitTmp },
  });
  const exited = new Promise((resolve) => kit.once("exit", (code, signal) => resolve(code ?? signal)));
  let workers: number[] = [];
  let groups: number[] = [];
  try {
    expect(await waitUntil(() => commandGroups().length >= 2, 30_000), "both scenarios started their command").toBe(true);
    workers = workersOf(kit.pid!);
    expect(workers).toHaveLength(2);
    groups = commandGroups();
    expect(groups).toHaveLength(2);
    // the report folder and each scenario's folder
    expect(readdirSync(kitTmp).length).toBeGreaterThanOrEqual(3);
    kit.kill("SIGTERM");
    expect(await exited).toBe("SIGTERM");
    expect(await waitUntil(() => workers.every((pid) => !isProcessAlive(pid)), 10_000), `workers left: ${workers.filter(isProcessAlive)}`).toBe(true);
    expect(await waitForGroupsGone(groups, 10_000)).toEqual([]);
    expect(readdirSync(kitTmp)).toEqual([]);
  } finally {
    // only what a failing run left behind
    kit.kill("SIGKILL");
    for (const pid of workers.filter(isProcessAlive)) process.kill(pid, "SIGKILL");
    for (const pgid of groups) killGroup(pgid);
  }
}, 90_000);

it("leaves no folder and no session when a kit running its scenarios in its own process is sent SIGTERM", async () => {
  const kitTmp = kitTmpdir("in-process");
  const kit = spawn(process.execPath, ["conformance/bin.mjs", "--parallel", "1", "--paths", join(dir, "features/fixture.feature")], {
    cwd: ROOT, stdio: "ignore", env: { ...process.env, TMPDIR: kitTmp },
  });
  const exited = new Promise((resolve) => kit.once("exit", (code, signal) => resolve(code ?? signal)));
  let groups: number[] = [];
  try {
    expect(await waitUntil(() => commandGroups().length >= 1, 30_000), "the first scenario started its command").toBe(true);
    groups = commandGroups();
    expect(workersOf(kit.pid!)).toEqual([]);
    // the report folder and the scenario's folder
    expect(readdirSync(kitTmp).length).toBeGreaterThanOrEqual(2);
    kit.kill("SIGTERM");
    expect(await exited).toBe("SIGTERM");
    expect(await waitForGroupsGone(groups, 10_000)).toEqual([]);
    expect(readdirSync(kitTmp)).toEqual([]);
  } finally {
    kit.kill("SIGKILL");
    for (const pgid of groups) killGroup(pgid);
  }
}, 90_000);
