// Configuration of SSH nodes for `host: "node"` (issue 13, EXEC-10), its defaults, and its checks at creation.
import { ExecProcessError, validateTimerDelay } from "../../engine/index.js";
import { parseHostKeys } from "./host-key.js";

/** One machine the `node` parameter can name. Exactly one of privateKey, password or agent authenticates. */
export interface SshNode {
  host: string;
  /** @default 22 */
  port?: number;
  username: string;
  /** A private key (OpenSSH or PEM text). */
  privateKey?: string | Buffer;
  /** Passphrase of an encrypted privateKey. */
  passphrase?: string;
  password?: string;
  /** Path of an ssh-agent socket, e.g. process.env.SSH_AUTH_SOCK. */
  agent?: string;
  /**
   * The server's public host key; the connection is refused when the server presents another key. Accepted forms:
   * a .pub file's line (`ssh-ed25519 AAAA… comment`), a known_hosts line (`[host]:port ssh-ed25519 AAAA…`,
   * `host ssh-ed25519 AAAA…`, with or without a comment), or several such lines (`ssh-keyscan` output: any of them
   * matches). An empty or unparseable value is refused by createSshExecutor. One of hostKey, hostVerifier or
   * acceptAnyHostKey is required.
   */
  hostKey?: string;
  /** Decides whether the server's host key (the raw key blob) is trusted. */
  hostVerifier?: (key: Buffer) => boolean;
  /** Trust any host key: only for test rigs and trusted networks. @default false */
  acceptAnyHostKey?: boolean;
}

export interface SshExecutorOptions {
  /** Node name → connection. `node` picks one; when it is omitted and only one node exists, that one is used. */
  nodes: Record<string, SshNode>;
  /** The remote shell that runs the command text, as `<shell> -c <command>`. @default "/bin/sh" */
  shell?: string;
  /**
   * Names of host variables sent to the node with every command, their values taken from the engine's prepared
   * environment. Nothing else of the host environment is sent: a command gets the node's own login environment,
   * these variables, the call's `env`, `OPENCLAW_SHELL=exec`, and under `pty: true` the terminal's `TERM`.
   * Values travel in a private (0600) file on the node, never on a command line.
   * @default []
   */
  forwardEnv?: string[];
  /** Variables of the remote login environment that are never replaced, even when forwarded or in `env`.
   * @default REMOTE_ENV_KEYS */
  remoteEnvKeys?: string[];
  /**
   * The server's limit of channels per connection (sshd `MaxSessions`, default 10). One of them is kept for the
   * node's control channel (kill, environment files), so a connection runs at most this many minus one commands.
   * @default 10
   */
  maxSessionsPerConnection?: number;
  /** Connections per node; commands beyond their channels wait in order for a free one. @default 4 */
  maxConnections?: number;
  /**
   * Keepalive probe interval: a connection that misses three probes is considered dropped; 0 sends none. From 0 to
   * 2147483647 ms; another value makes createSshExecutor throw an invalid-option ExecProcessError. @default 5000
   */
  keepaliveIntervalMs?: number;
  /**
   * How long connecting and authenticating may take; 0 waits without limit. From 0 to 2147483647 ms; another value
   * makes createSshExecutor throw an invalid-option ExecProcessError. @default 20000
   */
  connectTimeoutMs?: number;
}

/** Machine-specific variables that stay the remote machine's own: the local values would be wrong there. */
export const REMOTE_ENV_KEYS: readonly string[] = [
  "HOME", "USER", "LOGNAME", "SHELL", "PATH", "PWD", "OLDPWD", "MAIL", "TMPDIR", "XDG_RUNTIME_DIR",
  "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "SSH_AUTH_SOCK",
];

export const DEFAULT_KEEPALIVE_INTERVAL_MS = 5_000;
export const KEEPALIVE_COUNT_MAX = 3;
export const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
export const DEFAULT_REMOTE_SHELL = "/bin/sh";
/** sshd's default MaxSessions. */
export const DEFAULT_MAX_SESSIONS_PER_CONNECTION = 10;
export const DEFAULT_MAX_CONNECTIONS = 4;
/** Channels of each connection kept free for the node's control channel. */
export const CONTROL_CHANNELS = 1;

const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The options with every default filled in and checked. */
export interface NormalizedSshOptions {
  nodes: Map<string, SshNode>;
  hostKeys: Map<string, Buffer[]>;
  shell: string;
  forwardEnv: readonly string[];
  remoteEnvKeys: ReadonlySet<string>;
  maxSessionsPerConnection: number;
  maxConnections: number;
  keepaliveIntervalMs: number;
  connectTimeoutMs: number;
}

export function normalizeSshOptions(options: SshExecutorOptions): NormalizedSshOptions {
  const nodes = new Map(Object.entries(options.nodes));
  const hostKeys = new Map<string, Buffer[]>();
  for (const [name, node] of nodes) {
    const keys = validateNode(name, node);
    if (keys) hostKeys.set(name, keys);
  }
  const forwardEnv = options.forwardEnv ?? [];
  const badName = forwardEnv.find((name) => typeof name !== "string" || !PORTABLE_NAME.test(name));
  if (badName !== undefined) invalidOption("forwardEnv", "variable names like MY_VAR", String(badName));
  return {
    nodes, hostKeys, forwardEnv,
    shell: options.shell ?? DEFAULT_REMOTE_SHELL,
    remoteEnvKeys: new Set(options.remoteEnvKeys ?? REMOTE_ENV_KEYS),
    maxSessionsPerConnection: checkedInteger("maxSessionsPerConnection", options.maxSessionsPerConnection,
      DEFAULT_MAX_SESSIONS_PER_CONNECTION, CONTROL_CHANNELS + 1),
    maxConnections: checkedInteger("maxConnections", options.maxConnections, DEFAULT_MAX_CONNECTIONS, 1),
    // Both reach ssh2's timers, where a delay over 2^31 − 1 ms fires after 1 ms (issue 20).
    keepaliveIntervalMs: validateTimerDelay("createSshExecutor", "keepaliveIntervalMs", options.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS),
    connectTimeoutMs: validateTimerDelay("createSshExecutor", "connectTimeoutMs", options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
  };
}

/** Checks a node's host-key check and credentials; returns the key blobs of its hostKey, when it has one. */
function validateNode(name: string, node: SshNode): Buffer[] | undefined {
  if (node.hostKey === undefined && !node.hostVerifier && node.acceptAnyHostKey !== true) {
    throw new ExecProcessError({ code: "node-misconfigured", node: name, missing: "host-key" });
  }
  const keys = node.hostKey === undefined ? undefined : parseHostKeys(String(node.hostKey));
  if (keys?.length === 0) {
    throw new ExecProcessError({ code: "node-misconfigured", node: name, invalid: "hostKey", value: String(node.hostKey) });
  }
  if (node.privateKey === undefined && node.password === undefined && node.agent === undefined) {
    throw new ExecProcessError({ code: "node-misconfigured", node: name, missing: "credentials" });
  }
  return keys;
}

function checkedInteger(option: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) invalidOption(option, `an integer of at least ${min}`, String(value));
  return value;
}

function invalidOption(option: string, expected: string, value: string): never {
  throw new ExecProcessError({ code: "invalid-option", owner: "createSshExecutor", option, value, expected });
}
