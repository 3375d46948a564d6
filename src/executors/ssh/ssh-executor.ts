// createSshExecutor: runs `host: "node"` commands on machines reached over SSH with ssh2 (issues 13 and 20, EXEC-09,
// EXEC-10). Each node's connections, control channel and commands live in its NodeLink.
import type { PseudoTtyOptions } from "ssh2";
import {
  ExecProcessError, terminalName, TERMINAL_SIZE, type ExecutorProcess, type ExecutorSpawnRequest, type HostExecutor,
} from "../../engine/index.js";
import { NodeLink } from "./node-link.js";
import { normalizeSshOptions, type NormalizedSshOptions, type SshExecutorOptions, type SshNode } from "./ssh-options.js";

/** How long dispose may take: it kills what runs on every node, then closes every connection, reachable or not. */
export const DISPOSE_GRACE_MS = 2_000;

export interface SshExecutor extends HostExecutor {
  /**
   * Kills the commands still running on any node (and those a lost connection left running), then closes every
   * connection; returns within about DISPOSE_GRACE_MS, also when a node does not answer. Call after engine.dispose().
   */
  dispose(): Promise<void>;
}

export function createSshExecutor(options: SshExecutorOptions): SshExecutor {
  const settings = normalizeSshOptions(options);
  const links = new Map<string, NodeLink>();
  let disposing: Promise<void> | undefined;
  const linkOf = (name: string, node: SshNode): NodeLink => {
    let link = links.get(name);
    if (!link) {
      link = new NodeLink(name, node, {
        keepaliveIntervalMs: settings.keepaliveIntervalMs, connectTimeoutMs: settings.connectTimeoutMs,
        hostKeys: settings.hostKeys.get(name),
        maxSessionsPerConnection: settings.maxSessionsPerConnection, maxConnections: settings.maxConnections,
      });
      links.set(name, link);
    }
    return link;
  };

  return {
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      if (disposing) throw new ExecProcessError({ code: "engine-disposed" });
      const [name, node] = pickNode(settings.nodes, request.node);
      const remote = await linkOf(name, node).spawn({
        command: request.command, cwd: request.cwd, shell: settings.shell, vars: varsToSend(request, settings),
        pty: request.pty ? terminalOptions(request.env) : undefined, signal: request.signal,
      });
      return remote.process;
    },
    dispose() {
      if (!disposing) {
        const deadline = Date.now() + DISPOSE_GRACE_MS;
        const error = new ExecProcessError({ code: "engine-disposed" });
        disposing = Promise.all([...links.values()].map((link) => link.dispose(deadline, error))).then(() => {});
      }
      return disposing;
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

/**
 * Issue 20: only what the call needs goes to the node, never the whole host environment: the `forwardEnv` names
 * (values from the prepared environment), then the call's own `env`. The node's REMOTE_ENV_KEYS stay its own;
 * OPENCLAW_SHELL is set by the command line (EXEC-15) and a terminal's TERM by the terminal request (PTY-03).
 */
function varsToSend(request: ExecutorSpawnRequest, settings: NormalizedSshOptions): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of settings.forwardEnv) {
    const value = request.env[name];
    if (value !== undefined) vars[name] = value;
  }
  Object.assign(vars, request.envOverrides);
  for (const key of Object.keys(vars)) {
    if (settings.remoteEnvKeys.has(key) || key === "OPENCLAW_SHELL" || (request.pty && key === "TERM")) delete vars[key];
  }
  return vars;
}

/** A remote terminal of the local PTY size and terminal name (PTY-02, PTY-03): sshd sets TERM from it. */
function terminalOptions(env: Record<string, string>): PseudoTtyOptions {
  return { term: terminalName(env), cols: TERMINAL_SIZE.cols, rows: TERMINAL_SIZE.rows };
}
