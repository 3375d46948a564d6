// One authenticated SSH connection to a node, over a socket of our own so that it can always be torn down at once
// (ssh2's destroy() does nothing once end() was called, and end() never completes on a stalled link).
import { connect as connectSocket } from "node:net";
import type { Client, ConnectConfig } from "ssh2";
import { ExecProcessError } from "../../engine/index.js";
import { loadSsh2 } from "./load-ssh2.js";
import { KEEPALIVE_COUNT_MAX, type SshNode } from "./ssh-options.js";

export interface NodeConnection {
  readonly node: string;
  readonly client: Client;
  readonly closed: boolean;
  /** Called once when the connection closes for any reason (at once when it already has). Returns the remover. */
  onClose(listener: () => void): () => void;
  /** Ends the connection politely; `destroy` after it still closes the socket at once. */
  end(): void;
  destroy(): void;
}

export interface ConnectSettings {
  keepaliveIntervalMs: number;
  connectTimeoutMs: number;
  /** The accepted host key blobs (from `hostKey`); undefined: the node's hostVerifier or acceptAnyHostKey. */
  hostKeys: Buffer[] | undefined;
}

export async function connectNode(name: string, node: SshNode, settings: ConnectSettings): Promise<NodeConnection> {
  const { Client } = await loadSsh2();
  const client = new Client();
  const socket = connectSocket({ host: node.host, port: node.port ?? 22 });
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
    end: () => client.end(),
    destroy: () => socket.destroy(),
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
      socket.destroy();
      if (!ready) reject(connectFailed(name, "the connection closed during the handshake"));
      for (const listener of [...closeListeners]) listener();
      closeListeners.clear();
    });
    client.connect({ ...connectConfig(node, settings), sock: socket });
  });
}

function connectConfig(node: SshNode, settings: ConnectSettings): ConnectConfig {
  const config: ConnectConfig = {
    host: node.host, port: node.port ?? 22, username: node.username,
    readyTimeout: settings.connectTimeoutMs,
    keepaliveInterval: settings.keepaliveIntervalMs, keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    hostVerifier: hostVerifierOf(node, settings.hostKeys),
  };
  if (node.privateKey !== undefined) config.privateKey = node.privateKey;
  if (node.passphrase !== undefined) config.passphrase = node.passphrase;
  if (node.password !== undefined) config.password = node.password;
  if (node.agent !== undefined) config.agent = node.agent;
  return config;
}

function hostVerifierOf(node: SshNode, hostKeys: Buffer[] | undefined): (key: Buffer) => boolean {
  if (node.hostVerifier) return node.hostVerifier;
  if (hostKeys) return (key) => hostKeys.some((expected) => key.equals(expected));
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
