// Configuration of SSH nodes for `host: "node"` (issue 13, EXEC-10).

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
  /** The server's public host key as in known_hosts or a .pub file ("ssh-ed25519 AAAA…"); the connection is refused
   * when the server presents another key. One of hostKey, hostVerifier or acceptAnyHostKey is required. */
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
  /** Variables of the remote login environment that the engine's prepared environment does not replace.
   * @default REMOTE_ENV_KEYS */
  remoteEnvKeys?: string[];
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
