// The session host's options, normalized once: defaults filled in, limits checked, the listening address chosen.
import { ExecProcessError, type SessionEngineOptions } from "../engine/index.js";

/** The host's limits and names when its options leave them out (issue 33). */
export const HOST_DEFAULTS = Object.freeze({
  /** The name errors give the host; the bin's default too. */
  name: "exec-process-host",
  /** Connected clients at most (workers of a deployment, each one connection). */
  maxClients: 64,
  /** Scopes (agent names, threads) one client may use. */
  maxScopesPerClient: 1_000,
  /** The largest JSON-RPC message read, as the MCP server's (4 MiB); a larger one is refused unread. */
  maxRequestBytes: 4 * 1024 * 1024,
  /** A connection that has not authenticated within this time is closed. */
  helloTimeoutMs: 10_000,
  /** The longest message a connection may send before it has authenticated (a greeting is small). */
  maxHelloBytes: 64 * 1024,
  /** Connections that have not authenticated yet, beyond the clients: more are closed at once. */
  maxPendingConnections: 16,
  /** A wake claim not given back within this time (a worker stuck in a run) lapses. */
  wakeClaimMs: 10 * 60_000,
  /** The folder (under the temp dir, mode 0700) and socket of a host given no socketPath. */
  socketDirPrefix: "exec-process-host-",
  socketName: "host.sock",
  /** The environment variable a token may come from (host and clients). */
  tokenEnv: "EXEC_PROCESS_HOST_TOKEN",
  /** The variable every job of a host carries, with the host's instance id: its successor ends what a killed host left. */
  instanceEnv: "EXEC_PROCESS_HOST_INSTANCE",
  /** The environment variable a client takes the host's socket from when given neither socketPath nor url. */
  socketEnv: "EXEC_PROCESS_HOST_SOCKET",
});

/** The limits' ceilings: beyond them a value is a typo. */
const MAX_LIMIT = 1_000_000;
/** Addresses that TCP may use without TLS: this machine only. */
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface SessionHostOptions {
  /** Every client authenticates with it (compared in constant time). @default process.env.EXEC_PROCESS_HOST_TOKEN */
  token?: string;
  /**
   * The unix socket to listen on (mode 0600; its folder must exist). @default `host.sock` in a new private folder
   * under the temp dir, removed at close.
   */
  socketPath?: string;
  /** TCP instead of a unix socket: on a loopback address, or on any other only with `tls`. */
  listen?: { host: string; port: number; tls?: TlsFiles };
  /** The name errors and logs give the host. @default "exec-process-host" */
  name?: string;
  /** The options of the one engine the host creates and owns (executors, config, cwd, env). */
  engine?: SessionEngineOptions;
  /** @default 64 */
  maxClients?: number;
  /** @default 1000 */
  maxScopesPerClient?: number;
  /** @default 4194304 (4 MiB) */
  maxRequestBytes?: number;
  /** Receives one line per notable event (a client connected, refused, gone); no tokens. @default ignored */
  log?: (line: string) => void;
}

export type HostAddress = { kind: "unix"; socketPath: string } | { kind: "tcp"; host: string; port: number; tls: TlsFiles | undefined };

export interface ResolvedHostOptions {
  token: string;
  address: HostAddress | { kind: "unix"; socketPath: undefined };
  name: string;
  engine: SessionEngineOptions;
  maxClients: number;
  maxScopesPerClient: number;
  maxRequestBytes: number;
  log: (line: string) => void;
}

const invalid = (option: string, value: unknown, expected: string): ExecProcessError =>
  new ExecProcessError({ code: "invalid-option", owner: "createSessionHost", option, value: String(value), expected });

function limit(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) throw invalid(option, value, `an integer from 1 to ${MAX_LIMIT}`);
  return value;
}

export function resolveHostOptions(options: SessionHostOptions): ResolvedHostOptions {
  const token = options.token ?? process.env[HOST_DEFAULTS.tokenEnv];
  if (typeof token !== "string" || token.length < 16) {
    throw invalid("token", token === undefined ? "(none)" : "(too short)", `a secret of at least 16 characters, or ${HOST_DEFAULTS.tokenEnv}`);
  }
  if (options.socketPath !== undefined && options.listen !== undefined) {
    throw invalid("listen", `${options.listen.host}:${options.listen.port}`, "either socketPath or listen, not both");
  }
  return {
    token,
    address: options.listen ? tcpAddress(options.listen) : { kind: "unix", socketPath: options.socketPath },
    name: options.name ?? HOST_DEFAULTS.name,
    engine: options.engine ?? {},
    maxClients: limit("maxClients", options.maxClients, HOST_DEFAULTS.maxClients),
    maxScopesPerClient: limit("maxScopesPerClient", options.maxScopesPerClient, HOST_DEFAULTS.maxScopesPerClient),
    maxRequestBytes: limit("maxRequestBytes", options.maxRequestBytes, HOST_DEFAULTS.maxRequestBytes),
    log: options.log ?? (() => undefined),
  };
}

function tcpAddress(listen: NonNullable<SessionHostOptions["listen"]>): HostAddress {
  if (!Number.isInteger(listen.port) || listen.port < 0 || listen.port > 65_535) {
    throw invalid("listen.port", listen.port, "an integer from 0 to 65535 (0: any free port)");
  }
  if (!LOOPBACK.has(listen.host) && listen.tls === undefined) {
    throw invalid("listen.host", listen.host, "a loopback address (127.0.0.1, ::1, localhost), or tls with a certificate and key for any other");
  }
  return { kind: "tcp", host: listen.host, port: listen.port, tls: listen.tls };
}
