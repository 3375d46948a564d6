// Host shutdown (KILL-14, KILL-17 … KILL-20): a host process with live sessions and a child of its own receives
// SIGTERM. With the bridge on its child and engine.dispose() in its handler, no process group is left behind.
// The control case shows what the assertion catches: without them, SIGTERM kills the host and orphans everything.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive, killGroup, liveGroupMembers, waitForGroupsGone, waitUntil } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/host-with-sessions.mjs", import.meta.url));

/** Process-group ids: live sessions, one hidden by remove (alive at most for its 5 s grace), the host's own child. */
interface HostPids { sessions: number[]; hidden: number; child: number }

const started: Array<{ host: ChildProcess; pgids: number[] }> = [];

afterEach(() => {
  for (const { host, pgids } of started.splice(0)) {
    for (const pgid of pgids) killGroup(pgid);
    if (host.pid !== undefined) killGroup(host.pid);
  }
});

interface StartedHost { host: ChildProcess; pids: HostPids; exited: Promise<[number | null, string | null]> }

async function startHost(mode: "graceful" | "no-handler"): Promise<StartedHost> {
  const host = spawn(process.execPath, [FIXTURE, mode], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  const entry = { host, pgids: [] as number[] };
  started.push(entry);
  const exited = new Promise<[number | null, string | null]>((resolve) => host.once("exit", (code, signal) => resolve([code, signal])));
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    host.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.includes("\n")) resolve(buffered.slice(0, buffered.indexOf("\n")));
    });
    void exited.then(([code, signal]) => reject(new Error(`host exited early (${code ?? signal})`)));
  });
  const pids = JSON.parse(line) as HostPids;
  entry.pgids = [...pids.sessions, pids.hidden, pids.child];
  return { host, pids, exited };
}

const groupsAlive = (pgids: readonly number[]): boolean => pgids.every((pgid) => liveGroupMembers(pgid).length > 0);

describe("host shutdown", () => {
  it("SIGTERM to a host that bridges its child and disposes its engine leaves no process group behind", async () => {
    const { host, pids, exited } = await startHost("graceful");
    const pgids = [...pids.sessions, pids.child];
    expect(await waitUntil(() => groupsAlive(pgids), 10_000)).toBe(true);
    host.kill("SIGTERM");
    expect(await exited).toEqual([0, null]);
    const survivors = await waitForGroupsGone([...pgids, pids.hidden], 2_000);
    expect(survivors.map((p) => `${p.pgid}:${p.pid}:${p.comm}`)).toEqual([]);
    expect(isProcessAlive(host.pid ?? -1)).toBe(false);
  }, 60_000);

  it("control: without the bridge, dispose() and host-end cleanup, SIGTERM kills only the host and every group survives", async () => {
    const { host, pids, exited } = await startHost("no-handler");
    const pgids = [...pids.sessions, pids.child];
    expect(await waitUntil(() => groupsAlive(pgids), 10_000)).toBe(true);
    host.kill("SIGTERM");
    expect(await exited).toEqual([null, "SIGTERM"]);
    expect(pgids.filter((pgid) => liveGroupMembers(pgid).length > 0)).toEqual(pgids);
    for (const pgid of [...pgids, pids.hidden]) killGroup(pgid); // the test cleans up what it orphaned on purpose
    expect(await waitForGroupsGone([...pgids, pids.hidden], 5_000)).toEqual([]);
  }, 60_000);
});
