// Host-end cleanup (issue 9, like execa's `cleanup`): a host that forgets dispose() and ends in any of the usual
// ways leaves no session process behind. Each host runs in a child process; survivors are read from /proc by
// process group (zombies count as dead: PID 1 here does not reap them).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive, killGroup, liveGroupMembers, sleep, waitForGroupsGone, waitUntil } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/host-ends.mjs", import.meta.url));
const ptyLoads = await import("node-pty").then(() => true, () => false);

interface StartedHost { host: ChildProcess; groups: number[]; exited: Promise<[number | null, string | null]>; output: () => string }
const started: StartedHost[] = [];

afterEach(() => {
  for (const { host, groups } of started.splice(0)) {
    for (const pgid of groups) killGroup(pgid); // only what a failing test left behind
    if (host.exitCode === null && host.signalCode === null) host.kill("SIGKILL");
  }
});

async function startHost(args: string[]): Promise<StartedHost> {
  const host = spawn(process.execPath, [FIXTURE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<[number | null, string | null]>((resolve) => host.once("exit", (code, signal) => resolve([code, signal])));
  let stdout = "";
  let stderr = "";
  host.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const line = await new Promise<string>((resolve, reject) => {
    host.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    });
    void exited.then(([code, signal]) => reject(new Error(`host exited early (${code ?? signal}): ${stderr}`)));
  });
  const entry: StartedHost = { host, groups: (JSON.parse(line) as { groups: number[] }).groups, exited, output: () => stdout };
  started.push(entry);
  return entry;
}

const survivorsOf = async (groups: number[], ms: number): Promise<string[]> =>
  (await waitForGroupsGone(groups, ms)).map((p) => `${p.pgid}:${p.pid}:${p.comm}`);

const withPty = ptyLoads ? ["pty"] : [];

describe("host-end cleanup (cleanup: true, the default)", () => {
  it.each([
    ["process.exit()", "exit", undefined, [0, null]],
    ["an uncaught exception", "uncaught", undefined, [1, null]],
    ["SIGTERM without a handler of its own", "signal", "SIGTERM", [null, "SIGTERM"]],
    ["SIGINT without a handler of its own", "signal", "SIGINT", [null, "SIGINT"]],
    ["SIGHUP without a handler of its own", "signal", "SIGHUP", [null, "SIGHUP"]],
  ] as const)("a host ended by %s leaves no session process and ends as it would have", async (_, mode, signal, exit) => {
    const { host, groups, exited } = await startHost([mode, "cleanup", ...withPty]);
    expect(groups).toHaveLength(3 + withPty.length); // the control below shows these groups outlive a host without cleanup
    if (signal) {
      expect(await waitUntil(() => groups.every((g) => liveGroupMembers(g).length > 0), 10_000)).toBe(true);
      host.kill(signal);
    }
    expect(await exited).toEqual(exit);
    expect(await survivorsOf(groups, 5_000)).toEqual([]);
  }, 60_000);

  it("a host that simply returns is not kept alive by its pipe sessions, and leaves none behind", async () => {
    const { groups, exited } = await startHost(["return", "cleanup"]); // a PTY would keep it alive: see the README
    expect(await exited).toEqual([0, null]);
    expect(await survivorsOf(groups, 5_000)).toEqual([]);
  }, 60_000);

  it("a host with its own SIGTERM handler keeps running while its sessions are terminated", async () => {
    const { host, groups, exited, output } = await startHost(["own", "cleanup", ...withPty]);
    expect(await waitUntil(() => groups.every((g) => liveGroupMembers(g).length > 0), 10_000)).toBe(true);
    host.kill("SIGTERM");
    // SIGTERM at once, SIGKILL after the 5 s grace for the session that ignores it (KILL-08).
    expect(await survivorsOf(groups, 15_000)).toEqual([]);
    expect(output()).toContain("handled SIGTERM");
    expect(isProcessAlive(host.pid ?? -1)).toBe(true);
    await sleep(200);
    expect(host.exitCode).toBe(null);
    host.kill("SIGKILL");
    await exited;
  }, 60_000);
});

describe("host-end cleanup turned off (cleanup: false)", () => {
  it("control: process.exit() leaves every session running, which is what cleanup prevents", async () => {
    const { groups, exited } = await startHost(["exit", "no-cleanup"]);
    expect(await exited).toEqual([0, null]);
    await sleep(500);
    expect(groups.filter((g) => liveGroupMembers(g).length > 0)).toEqual(groups);
    for (const pgid of groups) killGroup(pgid); // the test ends what it orphaned on purpose
    expect(await survivorsOf(groups, 5_000)).toEqual([]);
  }, 60_000);
});
