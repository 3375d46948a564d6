// One SSH connection per node, opened on first use and shared by every command on that node (issue 13).
import type { Client, ConnectConfig } from "ssh2";
import { ExecProcessError } from "../../engine/errors.js";
import { loadSsh2 } from "./load-ssh2.js";
import { KEEPALIVE_COUNT_MAX, type SshNode } from "./ssh-options.js";

export interface NodeConnection {
  readonly node: string;
  readonly client: Client;
  /** Called once when the connection closes for any reason. */
  onClose(listener: () => void): () => void;
  readonly closed: boolean;
}

export interface PoolTimings { keepaliveIntervalMs: number; connectTimeoutMs: number }

export class ConnectionPool {
  private readonly connections = new Map<string, Promise<NodeConnection>>();

  constructor(private readonly timings: PoolTimings) {}

  /** The node's open connection, connecting first when there is none (or the last one closed). */
  get(name: string, node: SshNode): Promise<NodeConnection> {
    let connection = this.connections.get(name);
    if (!connection) {
      connection = this.connect(name, node);
      this.connections.set(name, connection);
      connection.catch(() => this.connections.delete(name));
    }
    return connection;
  }

  /** Closes every connection and waits until each has closed. */
  async closeAll(): Promise<void> {
    const open = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(open.map(async (pending) => {
      const connection = await pending.catch(() => undefined);
      if (!connection || connection.closed) return;
      await new Promise<void>((resolve) => {
        connection.onClose(resolve);
        connection.client.end();
      });
    }));
  }

  private async connect(name: string, node: SshNode): Promise<NodeConnection> {
    const { Client } = await loadSsh2();
    const client = new Client();
    const closeListeners = new Set<() => void>();
    let closed = false;
    const connection: NodeConnection = {
      node: name,
      client,
      get closed() {
        return closed;
      },
      onClose(listener) {
        if (closed) {
          listener();
          return () => {};
        }
        closeListeners.add(listener);
        return () => closeListeners.delete(listener);
      },
    };
    return new Promise((resolve, reject) => {
      let ready = false;
      client.on("error", (error: Error & { code?: string; level?: string }) => {
        if (!ready) reject(connectFailed(name, describeConnectError(error, node)));
      });
      client.once("ready", () => {
        ready = true;
        resolve(connection);
      });
      client.once("close", () => {
        closed = true;
        if (this.connections.get(name) !== undefined) void this.forget(name, connection);
        if (!ready) reject(connectFailed(name, "the connection closed during the handshake"));
        for (const listener of [...closeListeners]) listener();
        closeListeners.clear();
      });
      client.connect(connectConfig(node, this.timings));
    });
  }

  private async forget(name: string, connection: NodeConnection): Promise<void> {
    const current = await this.connections.get(name)?.catch(() => undefined);
    if (current === connection) this.connections.delete(name);
  }
}

function connectConfig(node: SshNode, timings: PoolTimings): ConnectConfig {
  const config: ConnectConfig = {
    host: node.host, port: node.port ?? 22, username: node.username,
    readyTimeout: timings.connectTimeoutMs,
    keepaliveInterval: timings.keepaliveIntervalMs, keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    hostVerifier: hostVerifierOf(node),
  };
  if (node.privateKey !== undefined) config.privateKey = node.privateKey;
  if (node.passphrase !== undefined) config.passphrase = node.passphrase;
  if (node.password !== undefined) config.password = node.password;
  if (node.agent !== undefined) config.agent = node.agent;
  return config;
}

function hostVerifierOf(node: SshNode): (key: Buffer) => boolean {
  if (node.hostVerifier) return node.hostVerifier;
  if (node.hostKey !== undefined) {
    const expected = Buffer.from(node.hostKey.trim().split(/\s+/)[1] ?? "", "base64");
    return (key) => key.equals(expected);
  }
  return () => true; // acceptAnyHostKey, checked when the executor is created
}

/** Plain reasons without Node internals: the model reads them. */
function describeConnectError(error: Error & { code?: string; level?: string }, node: SshNode): string {
  const where = `${node.host}:${node.port ?? 22}`;
  if (error.code === "ECONNREFUSED") return `nothing accepts SSH connections at ${where}`;
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") return `the host name "${node.host}" does not resolve`;
  if (error.code === "ETIMEDOUT" || /timed out/i.test(error.message)) return `no answer from ${where} in time`;
  if (error.level === "client-authentication") return `authentication as "${node.username}" was refused`;
  if (/host key|hostVerifier|verification failed/i.test(error.message)) return "the server's host key is not the configured hostKey";
  return error.message.split("\n")[0] ?? "unknown error";
}

const connectFailed = (node: string, reason: string): ExecProcessError =>
  new ExecProcessError({ code: "node-connect-failed", param: "node", node, reason });
