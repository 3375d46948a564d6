// NodeLink against a real sshd on 127.0.0.1 (started and stopped here): how many connections it opens for concurrent
// commands within maxSessionsPerConnection and maxConnections, the FIFO queue for a free channel and how a waiting
// command ends on abort and on dispose, what it learns from a channel the server refused, the command's variables,
// and a command of a lost connection killed once the node is reached again. Skipped with the reason when sshd
// cannot run on this machine.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import type { PoolLimits } from "../../src/executors/ssh/connection-pool.js";
import { parseHostKeys } from "../../src/executors/ssh/host-key.js";
import { NodeLink, type CommandSpec } from "../../src/executors/ssh/node-link.js";
import type { RemoteProcess } from "../../src/executors/ssh/remote-process.js";
import { sshdUnavailableReason, startSshd, type SshdFixture } from "../../scripts/sshd-fixture.mjs";
import { startStallProxy } from "../security/stall-proxy.js";
import { cleanUp, killAll, markerSeconds, onCleanUp, processesWith, scratchDir, sleepers, waitUntil } from "./helpers.js";

const unavailable = sshdUnavailableReason();
if (unavailable) console.warn(`NodeLink tests skipped: ${unavailable}`);

/** The dispose grace the executor gives a link (DISPOSE_GRACE_MS), and what a test allows beyond it on a loaded machine. */
const DISPOSE_GRACE_MS = 2_000;
const DISPOSE_SLACK_MS = 600;

let roomy: SshdFixture;
/** sshd with MaxSessions 3: the control channel and two commands per connection. */
let three: SshdFixture;
/** sshd with MaxSessions 1: the control channel takes the only one. */
let one: SshdFixture;

describe.skipIf(unavailable !== undefined)("NodeLink", () => {
  beforeAll(async () => {
    [roomy, three, one] = await Promise.all([startSshd(), startSshd({ maxSessions: 3 }), startSshd({ maxSessions: 1 })]);
  });
  afterAll(async () => {
    await Promise.all([roomy?.stop(), three?.stop(), one?.stop()]);
  });
  afterEach(cleanUp);

  function linkTo(sshd: SshdFixture, limits: PoolLimits, overrides: { port?: number; keepaliveIntervalMs?: number } = {}): NodeLink {
    const node = { host: sshd.host, port: overrides.port ?? sshd.port, username: sshd.username, privateKey: sshd.privateKey };
    const link = new NodeLink("build", node, {
      keepaliveIntervalMs: overrides.keepaliveIntervalMs ?? 0, connectTimeoutMs: 10_000, hostKeys: parseHostKeys(sshd.hostKey), ...limits,
    });
    onCleanUp(() => link.dispose(Date.now() + DISPOSE_GRACE_MS, new Error("the test is over")));
    return link;
  }

  /** A marker whose processes are killed after the test, whatever happened. */
  function newMarker(): string {
    const marker = markerSeconds();
    onCleanUp(() => killAll(processesWith(marker)));
    return marker;
  }

  it("runs maxSessionsPerConnection - 1 commands on a connection, opens no more than maxConnections, and reuses a freed channel", async () => {
    const marker = newMarker();
    const link = linkTo(roomy, { maxSessionsPerConnection: 3, maxConnections: 2 });
    const command = `echo "$SSH_CONNECTION"; exec sleep ${marker}`;
    const remotes = await Promise.all(Array.from({ length: 4 }, () => link.spawn(specOf(command))));
    const ports = await Promise.all(remotes.map(async (remote) => clientPort(await firstLineOf(remote))));
    expect([...countsOf(ports).values()]).toEqual([2, 2]);
    expect(establishedLocalPorts(roomy.port).sort()).toEqual([...new Set(ports)].sort()); // the control channel opened none
    const fifth = link.spawn(specOf(command));
    await (remotes[0] as RemoteProcess).kill("SIGKILL");
    expect(clientPort(await firstLineOf(await fifth))).toBe(ports[0]);
    expect(establishedLocalPorts(roomy.port)).toHaveLength(2);
  });

  it("hands a freed channel to the waiting commands in the order they asked", async () => {
    const dir = scratchDir("node-link-");
    const link = linkTo(roomy, { maxSessionsPerConnection: 2, maxConnections: 1 }); // one command at a time
    const holder = await link.spawn(specOf(`exec sleep ${newMarker()}`));
    const queued = ["A", "B", "C"].map((name) => link.spawn(specOf(`echo ${name} >> order`, { cwd: dir })));
    await holder.kill("SIGKILL");
    await Promise.all((await Promise.all(queued)).map(exitOf));
    expect(readFileSync(`${dir}/order`, "utf8")).toBe("A\nB\nC\n");
  });

  it("a waiting command ends with AbortError on abort and never runs; the one behind it takes the channel", async () => {
    const dir = scratchDir("node-link-");
    const link = linkTo(roomy, { maxSessionsPerConnection: 2, maxConnections: 1 });
    const holder = await link.spawn(specOf(`exec sleep ${newMarker()}`));
    const controller = new AbortController();
    const aborted = link.spawn(specOf("echo aborted >> order", { cwd: dir, signal: controller.signal }));
    const next = link.spawn(specOf("echo next >> order", { cwd: dir }));
    controller.abort();
    const error = await aborted.then(() => undefined, (reason: unknown) => reason);
    expect(ExecProcessError.is(error, "aborted"), String(error)).toBe(true);
    expect(error).toMatchObject({ name: "AbortError", message: messages.ABORTED });
    await holder.kill("SIGKILL");
    expect(await exitOf(await next)).toEqual([0, null]);
    expect(readFileSync(`${dir}/order`, "utf8")).toBe("next\n");
  });

  it("dispose fails a waiting command and every later one with its error, kills the running one and closes the connection in time", async () => {
    const marker = newMarker();
    const link = linkTo(roomy, { maxSessionsPerConnection: 2, maxConnections: 1 });
    const running = await link.spawn(specOf(`exec sleep ${marker}`));
    expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
    const waiting = link.spawn(specOf("echo never")).then(() => undefined, (reason: unknown) => reason);
    const error = new ExecProcessError({ code: "engine-disposed" });
    const deadline = Date.now() + DISPOSE_GRACE_MS;
    await link.dispose(deadline, error);
    expect(Date.now()).toBeLessThan(deadline + DISPOSE_SLACK_MS);
    expect(await waiting).toBe(error);
    await expect(link.spawn(specOf("echo later"))).rejects.toBe(error);
    expect(running.finished).toBe(true);
    expect(await waitUntil(() => sleepers(marker) === 0, 5_000)).toBe(true);
    expect(await waitUntil(() => establishedLocalPorts(roomy.port).length === 0, 5_000)).toBe(true);
  });

  it("keeps to the channels the server allows: a command beyond MaxSessions waits for a free one instead of failing", async () => {
    const marker = newMarker();
    const link = linkTo(three, { maxSessionsPerConnection: 10, maxConnections: 1 });
    const calls = Array.from({ length: 3 }, () => link.spawn(specOf(`exec sleep ${marker}`)));
    const [first, second] = await Promise.all(calls.slice(0, 2)); // the control channel and these two: sshd's three
    expect(await waitUntil(() => sleepers(marker) === 2, 10_000)).toBe(true);
    await (first as RemoteProcess).kill("SIGKILL");
    const third = await (calls[2] as Promise<RemoteProcess>);
    expect(third.process.pid).toEqual(expect.any(Number));
    expect([first?.finished, second?.finished, third.finished]).toEqual([true, false, false]);
  });

  it("says the node refused a channel when the server leaves none for a command beside the control channel", async () => {
    const link = linkTo(one, { maxSessionsPerConnection: 10, maxConnections: 1 });
    const error = await link.spawn(specOf("true")).then(() => undefined, (reason: unknown) => reason);
    const reason = "Channel open failure: open failed";
    expect(ExecProcessError.is(error, "node-channel-refused"), String(error)).toBe(true);
    expect((error as ExecProcessError).data).toEqual({ code: "node-channel-refused", param: "node", node: "build", reason });
    expect((error as Error).message).toBe(messages.sshChannelRefused("build", reason));
  });

  it("hands the command its variables literally", async () => {
    const link = linkTo(roomy, { maxSessionsPerConnection: 3, maxConnections: 1 });
    const remote = await link.spawn(specOf('printf "%s|%s" "$GREETING" "$EMPTY"', { vars: { GREETING: "it's $HOME `id`", EMPTY: "" } }));
    const stdout = stdoutOf(remote);
    expect(await exitOf(remote)).toEqual([0, null]);
    expect(stdout()).toBe("it's $HOME `id`|");
  });

  it("kills a command of a lost connection once the node is reached again", async () => {
    const marker = newMarker();
    const proxy = await startStallProxy(roomy.port);
    onCleanUp(() => proxy.close());
    const link = linkTo(roomy, { maxSessionsPerConnection: 3, maxConnections: 1 }, { port: proxy.port, keepaliveIntervalMs: 100 });
    const lost = await link.spawn(specOf(`exec sleep ${marker}`));
    expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
    proxy.stall(); // the connection goes silent; keepalive notices
    expect(await exitOf(lost)).toEqual([null, null]);
    expect(sleepers(marker)).toBe(1); // nothing could reach the node to kill it
    const again = await link.spawn(specOf("echo again"));
    expect(await exitOf(again)).toEqual([0, null]);
    expect(await waitUntil(() => sleepers(marker) === 0, 10_000)).toBe(true);
  });
});

function specOf(command: string, overrides: Partial<CommandSpec> = {}): CommandSpec {
  return { command, cwd: "/", shell: "/bin/sh", vars: {}, pty: undefined, signal: undefined, ...overrides };
}

/** The stdout a remote command printed so far (after its start frame). */
function stdoutOf(remote: RemoteProcess): () => string {
  let stdout = "";
  remote.process.onOutput((stream, chunk) => {
    if (stream === "stdout") stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  });
  return () => stdout;
}

/** The first line a remote command prints on stdout. */
async function firstLineOf(remote: RemoteProcess): Promise<string> {
  const stdout = stdoutOf(remote);
  expect(await waitUntil(() => stdout().includes("\n"), 10_000), "the command printed a line").toBe(true);
  return stdout().slice(0, stdout().indexOf("\n"));
}

function exitOf(remote: RemoteProcess): Promise<[number | null, string | null]> {
  return new Promise((resolve) => remote.process.onExit((code, signal) => resolve([code, signal])));
}

/** The client's port in $SSH_CONNECTION (`client-ip client-port server-ip server-port`): it names the connection. */
function clientPort(sshConnection: string): number {
  return Number(sshConnection.split(" ")[1]);
}

/** How often each value occurs, in order of first occurrence. */
function countsOf(values: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** Local ports of established TCP connections to `port` on 127.0.0.1 (this machine's clients of that sshd). */
function establishedLocalPorts(port: number): number[] {
  const ports: number[] = [];
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (!local || !remote || state !== "01") continue;
    if (parseInt(remote.split(":")[1] ?? "", 16) === port) ports.push(parseInt(local.split(":")[1] ?? "", 16));
  }
  return ports;
}
