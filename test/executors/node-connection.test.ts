// connectNode against a real sshd on 127.0.0.1 (started and stopped here): it authenticates, reports why a connection
// failed in plain words (refused, unknown host, wrong host key, refused login, no answer), closes once with its
// listeners, notices a dead link by keepalive, and can always be torn down at once, even on a stalled link.
// Skipped with the reason when sshd cannot run on this machine.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientChannel } from "ssh2";
import { ExecProcessError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import { parseHostKeys } from "../../src/executors/ssh/host-key.js";
import { connectNode, type ConnectSettings, type NodeConnection } from "../../src/executors/ssh/node-connection.js";
import type { SshNode } from "../../src/executors/ssh/ssh-options.js";
import { sshdUnavailableReason, startSshd, type SshdFixture } from "../../scripts/sshd-fixture.mjs";
import { startStallProxy } from "../security/stall-proxy.js";
import { cleanUp, onCleanUp, waitUntil } from "./helpers.js";

const unavailable = sshdUnavailableReason();
if (unavailable) console.warn(`connectNode tests skipped: ${unavailable}`);

/** How long a teardown that should be immediate may take on a loaded machine. */
const AT_ONCE_MS = 1_000;
/** How long a stalled link with keepalive every 100 ms may take to close (3 missed probes), with slack for load. */
const KEEPALIVE_NOTICED_MS = 5_000;

let sshd: SshdFixture;

describe.skipIf(unavailable !== undefined)("connectNode", () => {
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
  });
  afterEach(cleanUp);

  const nodeOf = (overrides: Partial<SshNode> = {}): SshNode => ({
    host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, ...overrides,
  });
  const settingsOf = (overrides: Partial<ConnectSettings> = {}): ConnectSettings => ({
    keepaliveIntervalMs: 0, connectTimeoutMs: 10_000, hostKeys: parseHostKeys(sshd.hostKey), ...overrides,
  });

  async function connect(node: SshNode = nodeOf(), settings: ConnectSettings = settingsOf()): Promise<NodeConnection> {
    const connection = await connectNode("build", node, settings);
    onCleanUp(() => connection.destroy());
    return connection;
  }

  /** The error connectNode rejects with (undefined when it connected). */
  async function failureOf(node: SshNode, settings: ConnectSettings = settingsOf()): Promise<unknown> {
    return connectNode("build", node, settings).then((connection) => void connection.destroy(), (error: unknown) => error);
  }

  function expectConnectFailed(error: unknown, reason: string): void {
    expect(ExecProcessError.is(error, "node-connect-failed"), String(error)).toBe(true);
    expect((error as ExecProcessError).data).toEqual({ code: "node-connect-failed", param: "node", node: "build", reason });
    expect((error as ExecProcessError).message).toBe(messages.sshConnectFailed("build", reason));
  }

  it("connects and logs in as the node's user, open until it is ended", async () => {
    const connection = await connect();
    expect(connection.node).toBe("build");
    expect(connection.closed).toBe(false);
    expect(await run(connection, "id -un")).toBe(`${sshd.username}\n`);
    const closed = new Promise<void>((resolve) => connection.onClose(resolve));
    connection.end();
    await closed;
    expect(connection.closed).toBe(true);
  });

  it("trusts the server by the node's hostVerifier when no hostKey is given, handing it the key blob", async () => {
    const seen: Buffer[] = [];
    const connection = await connect(nodeOf({ hostVerifier: (key) => (seen.push(key), true) }), settingsOf({ hostKeys: undefined }));
    expect(connection.closed).toBe(false);
    expect(seen).toEqual(parseHostKeys(sshd.hostKey));
  });

  it("says nothing accepts SSH connections when the port is closed", async () => {
    const closedPort = await unusedPort();
    expectConnectFailed(await failureOf(nodeOf({ port: closedPort })), `nothing accepts SSH connections at 127.0.0.1:${closedPort}`);
  });

  it("says the host name does not resolve", async () => {
    expectConnectFailed(await failureOf(nodeOf({ host: "no-such-node.invalid" })), 'the host name "no-such-node.invalid" does not resolve');
  });

  it.each<[string, () => { node: Partial<SshNode>; hostKeys: Buffer[] | undefined }]>([
    ["another key than hostKey", () => ({ node: {}, hostKeys: parseHostKeys(readFileSync(`${sshd.dir}/user_key.pub`, "utf8")) })],
    ["a hostVerifier that refuses it", () => ({ node: { hostVerifier: () => false }, hostKeys: undefined })],
  ])("says the server's host key is not the configured one when the server presents %s", async (_, setup) => {
    const { node, hostKeys } = setup();
    expectConnectFailed(await failureOf(nodeOf(node), settingsOf({ hostKeys })), "the server's host key is not the configured hostKey");
  });

  it("says the login was refused, naming the user, when the server does not accept the key", async () => {
    const strangerKey = readFileSync(`${sshd.dir}/host_key`, "utf8"); // a valid key that is not in authorized_keys
    const error = await failureOf(nodeOf({ privateKey: strangerKey }));
    expectConnectFailed(error, `authentication as "${sshd.username}" was refused`);
  });

  it("says there was no answer in time when the server accepts the connection but never speaks", async () => {
    const proxy = await startStallProxy(sshd.port);
    onCleanUp(() => proxy.close());
    proxy.stall({ newConnections: true });
    const error = await failureOf(nodeOf({ port: proxy.port }), settingsOf({ connectTimeoutMs: 300 }));
    expectConnectFailed(error, `no answer from 127.0.0.1:${proxy.port} in time`);
  });

  it("passes on ssh2's first line when the peer closes before the handshake", async () => {
    const server = await listen((socket) => socket.destroy());
    const port = (server.address() as { port: number }).port;
    expectConnectFailed(await failureOf(nodeOf({ port })), "Connection lost before handshake");
  });

  it("calls each close listener once, not a removed one, and a late one at once", async () => {
    const connection = await connect();
    const calls: string[] = [];
    connection.onClose(() => calls.push("kept"));
    const remove = connection.onClose(() => calls.push("removed"));
    remove();
    const closed = new Promise<void>((resolve) => connection.onClose(resolve));
    connection.end();
    await closed;
    connection.destroy(); // a second teardown notifies nobody again
    expect(await waitUntil(() => connection.closed, AT_ONCE_MS)).toBe(true);
    connection.onClose(() => calls.push("late"));
    expect(calls).toEqual(["kept", "late"]);
  });

  it("is torn down at once by destroy on a stalled link, even after end", async () => {
    const proxy = await startStallProxy(sshd.port);
    onCleanUp(() => proxy.close());
    const connection = await connect(nodeOf({ port: proxy.port }));
    let closes = 0;
    connection.onClose(() => (closes += 1));
    proxy.stall();
    connection.end(); // never completes: the server's answer cannot arrive
    expect(connection.closed).toBe(false);
    connection.destroy();
    expect(await waitUntil(() => connection.closed, AT_ONCE_MS)).toBe(true);
    expect(closes).toBe(1);
  });

  it("closes by itself when a stalled link misses its keepalive probes", async () => {
    const proxy = await startStallProxy(sshd.port);
    onCleanUp(() => proxy.close());
    const connection = await connect(nodeOf({ port: proxy.port }), settingsOf({ keepaliveIntervalMs: 100 }));
    proxy.stall();
    expect(await waitUntil(() => connection.closed, KEEPALIVE_NOTICED_MS)).toBe(true);
  });
});

/** Runs `command` on a channel of `connection`; resolves with its stdout once the channel closes. */
function run(connection: NodeConnection, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    connection.client.exec(command, (error: Error | undefined, channel: ClientChannel) => {
      if (error) return reject(error);
      let stdout = "";
      channel.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      channel.stderr.resume();
      channel.once("close", () => resolve(stdout));
    });
  });
}

/** A local TCP server, closed by `cleanUp`. */
async function listen(onConnection: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanUp(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

/** A port on 127.0.0.1 that nothing listens on (taken and given back at once). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
