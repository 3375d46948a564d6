// createSessionHost: one session engine, served to the workers of a deployment over a unix socket (or TCP, TLS off
// loopback). Its sessions belong to scopes, not to connections: a client that leaves, or dies, leaves its jobs
// running, and a client that comes back under the same scope finds them, their records and their queued exit
// events. Only the host's own end (close, or the end of its process) ends them.
import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, lstatSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { createServer as createNetServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { createSessionEngine, ExecProcessError, type LocalSessionEngine } from "../engine/index.js";
import { HostClient } from "./host-client.js";
import { HOST_DEFAULTS, resolveHostOptions, type HostAddress, type SessionHostOptions } from "./host-options.js";
import { instanceFileOf, takeOverSocket } from "./predecessor.js";
import { WakeClaims } from "./wake-claims.js";

export interface SessionHost {
  readonly name: string;
  /** Random per start: clients tell a restarted host by it. */
  readonly instanceId: string;
  /** Where it listens: the socket's path, or the TCP address (with the port chosen when 0 was asked). */
  readonly address: HostAddress;
  /** The engine the host owns; its sessions are the clients'. */
  readonly engine: LocalSessionEngine;
  /** Clients connected and authenticated now. */
  clientCount(): number;
  /** Stops listening, disconnects every client, ends every session (the engine's dispose) and removes the socket. */
  close(): Promise<void>;
}

export async function createSessionHost(options: SessionHostOptions = {}): Promise<SessionHost> {
  const settings = resolveHostOptions(options);
  const instanceId = randomUUID();
  const engineEnv = { ...(settings.engine.env ?? process.env), [HOST_DEFAULTS.instanceEnv]: instanceId };
  const engine = createSessionEngine({ ...settings.engine, env: engineEnv });
  const clients = new Set<HostClient>();
  const claims = new WakeClaims(HOST_DEFAULTS.wakeClaimMs);
  const context = { settings, engine, instanceId, claims, clients };
  const stopWakes = engine.addWakeListener({
    onWake: (request) => {
      for (const client of clients) client.pushWake(request);
    },
  });
  const onConnection = (socket: Socket): void => {
    const pending = [...clients].filter((client) => !client.authenticated).length;
    if (pending >= HOST_DEFAULTS.maxPendingConnections) {
      socket.destroy(); // a flood of connections that do not greet: the clients that did keep their host
      return;
    }
    const client = new HostClient(socket, context);
    clients.add(client);
    client.onClose(() => {
      clients.delete(client);
      for (const scopeKey of claims.releaseAll(client)) announceQueued(scopeKey);
    });
  };
  /** A wake claim given up by a client that left: its scope's events, if still queued, are announced again. */
  const announceQueued = (scopeKey: string): void => {
    const [first] = engine.peekSystemEvents(scopeKey);
    if (!first) return;
    const request = { scopeKey, sessionId: first.sessionId, source: "exec-event", reason: "exec-event" } as const;
    for (const client of clients) client.pushWake(request);
  };

  let listening: Listening;
  try {
    listening = await listen(settings.address, onConnection, instanceId, (ended) => {
      if (ended > 0) settings.log(`${settings.name}: ended ${ended} processes that a killed host left running on this socket`);
    });
  } catch (error) {
    await engine.dispose();
    throw error;
  }
  const { server, address, removeSocket } = listening;
  settings.log(`${settings.name}: listening on ${describeAddress(address)}`);
  let closing: Promise<void> | undefined;
  return {
    name: settings.name,
    instanceId,
    address,
    engine,
    clientCount: () => [...clients].filter((client) => client.authenticated).length,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        stopWakes();
        await engine.dispose();
        // The calls the shutdown ended answer their clients (KILL-16: a failed result), then the connections end.
        await withDeadline(Promise.all([...clients].map((client) => client.end())), CLOSE_GRACE_MS);
        for (const client of clients) client.destroy();
        await stopped;
        removeSocket();
        settings.log(`${settings.name}: closed`);
      })();
      return closing;
    },
  };
}

/** How long a closing host waits for its last answers to go out before it cuts the connections. */
const CLOSE_GRACE_MS = 2_000;

function withDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => undefined), deadline]).finally(() => clearTimeout(timer));
}

export function describeAddress(address: HostAddress): string {
  if (address.kind === "unix") return address.socketPath;
  return `${address.tls ? "tls" : "tcp"}://${address.host.includes(":") ? `[${address.host}]` : address.host}:${address.port}`;
}

interface Listening {
  server: Server;
  address: HostAddress;
  removeSocket(): void;
}

async function listen(
  address: HostAddress | { kind: "unix"; socketPath: undefined }, onConnection: (socket: Socket) => void,
  instanceId: string, onTakeOver: (ended: number) => void,
): Promise<Listening> {
  if (address.kind === "tcp") {
    const server = address.tls ? createTlsServer({ cert: address.tls.cert, key: address.tls.key }, onConnection) : createNetServer(onConnection);
    await listenOn(server, { host: address.host, port: address.port });
    const bound = server.address();
    const port = typeof bound === "object" && bound ? bound.port : address.port;
    return { server, address: { ...address, port }, removeSocket: () => undefined };
  }
  // No path given: a new folder only this user can enter (mkdtemp: 0700), removed with the socket.
  const folder = address.socketPath === undefined ? mkdtempSync(join(tmpdir(), HOST_DEFAULTS.socketDirPrefix)) : undefined;
  const socketPath = address.socketPath ?? join(folder!, HOST_DEFAULTS.socketName);
  if (folder === undefined) {
    await removeStaleSocket(socketPath);
    onTakeOver(takeOverSocket(socketPath, instanceId));
  }
  const server = createNetServer(onConnection);
  try {
    await listenOn(server, { path: socketPath });
    chmodSync(socketPath, 0o600);
  } catch (error) {
    server.close();
    rmSync(folder ?? instanceFileOf(socketPath), { recursive: true, force: true });
    throw error;
  }
  const removeSocket = (): void => {
    process.off("exit", removeSocket);
    rmSync(folder ?? socketPath, { recursive: true, force: true });
    if (folder === undefined) rmSync(instanceFileOf(socketPath), { force: true }); // a clean end: nothing to take over
  };
  process.on("exit", removeSocket);
  return { server, address: { kind: "unix", socketPath }, removeSocket };
}

function listenOn(server: Server, where: { path: string } | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(where, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * A socket left by a host that died is removed; one a live host answers on, and anything that is not a socket, is
 * refused: a second host must not take the first one's clients, nor a path the operator mistyped replace a file.
 */
async function removeStaleSocket(socketPath: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(socketPath).isSocket();
  } catch {
    return; // nothing there
  }
  const refuse = (what: string) => new ExecProcessError({
    code: "invalid-option", owner: "createSessionHost", option: "socketPath", value: socketPath, expected: `a path where no ${what} is`,
  });
  if (!isSocket) throw refuse("file");
  const answered = await new Promise<boolean>((resolve) => {
    const probe = connect(socketPath);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (answered) throw refuse("running host");
  unlinkSync(socketPath);
}

/** A token a host may be given when its operator has none: 32 random bytes as 64 hex digits. */
export function generateHostToken(): string {
  return randomBytes(32).toString("hex");
}
