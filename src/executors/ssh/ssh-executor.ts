// createSshExecutor: runs `host: "node"` commands on machines reached over SSH with ssh2 (issue 13, EXEC-09, EXEC-10).
import type { ClientChannel, PseudoTtyOptions } from "ssh2";
import { ExecProcessError } from "../../engine/errors.js";
import { PTY_COLS, PTY_ROWS } from "../../engine/settings.js";
import { terminalName } from "../../engine/spawn/pty-backend.js";
import { validateTimerDelay } from "../../engine/timer-delay.js";
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../../engine/types.js";
import { ConnectionPool, type NodeConnection } from "./connection-pool.js";
import { remoteCommandLine } from "./remote-command.js";
import { startRemoteProcess, type RemoteProcess } from "./remote-process.js";
import {
  DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_KEEPALIVE_INTERVAL_MS, DEFAULT_REMOTE_SHELL, REMOTE_ENV_KEYS,
  type SshExecutorOptions, type SshNode,
} from "./ssh-options.js";

/** How long dispose waits for killed remote commands to report their end before closing the connections. */
const DISPOSE_GRACE_MS = 2_000;

export interface SshExecutor extends HostExecutor {
  /** Kills the commands still running on any node, then closes every pooled connection. Call after engine.dispose(). */
  dispose(): Promise<void>;
}

export function createSshExecutor(options: SshExecutorOptions): SshExecutor {
  const nodes = new Map(Object.entries(options.nodes));
  for (const [name, node] of nodes) validateNode(name, node);
  const shell = options.shell ?? DEFAULT_REMOTE_SHELL;
  const remoteEnvKeys = new Set(options.remoteEnvKeys ?? REMOTE_ENV_KEYS);
  // Both reach ssh2's timers, where a delay over 2^31 − 1 ms fires after 1 ms (issue 20).
  const pool = new ConnectionPool({
    keepaliveIntervalMs: validateTimerDelay("createSshExecutor", "keepaliveIntervalMs", options.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS),
    connectTimeoutMs: validateTimerDelay("createSshExecutor", "connectTimeoutMs", options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
  });
  const running = new Set<RemoteProcess>();

  return {
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      const [name, node] = pickNode(nodes, request.node);
      const connection = await pool.get(name, node);
      // PTY-03: the terminal's name, as a local terminal session gets it.
      const env = request.pty ? { ...request.env, TERM: terminalName(request.env) } : request.env;
      const line = remoteCommandLine({ command: request.command, cwd: request.cwd, env, shell, remoteEnvKeys });
      const channel = await openChannel(connection, line, request.pty ? terminalOptions(request.env) : undefined);
      const remote = startRemoteProcess(connection, channel, request.pty);
      running.add(remote);
      void remote.done.then(() => running.delete(remote));
      await remote.started; // the remote pid is reported like a local one (RES-22, RES-23)
      return remote.process;
    },
    async dispose() {
      const left = [...running];
      for (const remote of left) remote.kill("SIGKILL");
      await Promise.race([
        Promise.all(left.map((remote) => remote.done)),
        new Promise((resolve) => setTimeout(resolve, DISPOSE_GRACE_MS).unref()),
      ]);
      await pool.closeAll();
    },
  };
}

/** EXEC-10: `node` names a configured node; omitted, the only node. Unknown names are refused, listing the known. */
function pickNode(nodes: Map<string, SshNode>, requested: string | undefined): [string, SshNode] {
  const name = requested ?? (nodes.size === 1 ? [...nodes.keys()][0] : undefined);
  const node = name === undefined ? undefined : nodes.get(name);
  if (name === undefined || !node) {
    throw new ExecProcessError({ code: "unknown-node", param: "node", node: requested, knownNodes: [...nodes.keys()] });
  }
  return [name, node];
}

function validateNode(name: string, node: SshNode): void {
  if (node.hostKey === undefined && !node.hostVerifier && node.acceptAnyHostKey !== true) {
    throw new ExecProcessError({ code: "node-misconfigured", node: name, missing: "host-key" });
  }
  if (node.privateKey === undefined && node.password === undefined && node.agent === undefined) {
    throw new ExecProcessError({ code: "node-misconfigured", node: name, missing: "credentials" });
  }
}

/** A remote terminal of the local PTY size and terminal name (PTY-02, PTY-03). */
function terminalOptions(env: Record<string, string>): PseudoTtyOptions {
  return { term: terminalName(env), cols: PTY_COLS, rows: PTY_ROWS };
}

function openChannel(connection: NodeConnection, line: string, pty: PseudoTtyOptions | undefined): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | undefined, channel: ClientChannel): void => {
      if (error) {
        const reason = `the node refused a new session (${error.message})`;
        reject(new ExecProcessError({ code: "node-connect-failed", param: "node", node: connection.node, reason }, { cause: error }));
      }
      else resolve(channel);
    };
    if (pty) connection.client.exec(line, { pty }, done);
    else connection.client.exec(line, done);
  });
}
