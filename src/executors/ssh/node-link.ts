// Everything the executor keeps for one node (issue 20): its connections and their channels, its control channel,
// the commands running there, and the process groups left running by a lost connection, which are killed as soon
// as the node is connected again.
import type { PseudoTtyOptions } from "ssh2";
import { abortError, ExecProcessError } from "../../engine/index.js";
import * as messages from "../../engine/messages.js";
import { ConnectionPool, type Lease, type PoolLimits } from "./connection-pool.js";
import { openControlChannel, type ControlChannel } from "./control-shell.js";
import { connectNode, type ConnectSettings, type NodeConnection } from "./node-connection.js";
import { ChannelRefused, connectionClosed, openChannel } from "./open-channel.js";
import { NodeLeftovers } from "./node-leftovers.js";
import { envFileLine, envFilePath, envScript, newMarker, remoteCommandLine, remoteKillLine } from "./remote-command.js";
import { startRemoteProcess, type RemoteProcess, type Signal } from "./remote-process.js";
import type { SshNode } from "./ssh-options.js";

export interface CommandSpec {
  command: string;
  cwd: string;
  shell: string;
  /** The variables handed to the command (already chosen: forwarded names and the call's overrides). */
  vars: Record<string, string>;
  pty: PseudoTtyOptions | undefined;
  signal: AbortSignal | undefined;
}

/** Of dispose's grace: how long the kills may take before connections that did not answer are given up. */
const DISPOSE_KILL_WAIT_MS = 1_000;
/** Of dispose's grace: kept for closing the connections at the end. */
const DISPOSE_CLOSE_MS = 200;
/**
 * Kills still unanswered this long into dispose: a spare connection starts opening beside the wait, so that a loaded
 * node's handshake has the rest of the grace, not only what the kill wait leaves (run 42 of issue 36).
 */
const DISPOSE_SPARE_AFTER_MS = 150;
/** First pause of a command whose channel the server refused while still counting a closed one; it doubles. */
const REFUSED_RETRY_MS = 50;
const REFUSED_RETRY_MAX_MS = 1_000;

export class NodeLink {
  private readonly pool: ConnectionPool<NodeConnection>;
  private control: Promise<ControlChannel> | undefined;
  /** The connection that carries (or is opening) the control channel. */
  private controlConnection: NodeConnection | undefined;
  /** A connection opened outside the pool by dispose, only to kill orphans; undefined when it could not be opened. */
  private spare: Promise<NodeConnection | undefined> | undefined;
  /** The spare once connected, for the control channel and the final close. */
  private spareConnection: NodeConnection | undefined;
  /** Set when dispose starts: the error of commands that have not started yet. */
  private stopping: unknown;
  private readonly stopped = new AbortController();
  private disposed = false;
  private readonly leftovers = new NodeLeftovers((line) => this.runControl(line));
  private readonly running = new Map<RemoteProcess, NodeConnection>();

  constructor(readonly name: string, private readonly node: SshNode, private readonly settings: ConnectSettings & PoolLimits) {
    this.pool = new ConnectionPool(() => connectNode(name, node, settings), settings, () => void this.connected());
  }

  /** Starts a command; resolves once its remote pid is known (RES-22, RES-23). */
  async spawn(spec: CommandSpec): Promise<RemoteProcess> {
    for (let retry = 0; ; retry += 1) {
      const lease = await this.pool.acquire(spec.signal, retry > 0); // a refused command keeps its place in the queue
      const outcome = await this.startOn(lease, spec);
      if (outcome === "later") await this.pause(Math.min(REFUSED_RETRY_MAX_MS, REFUSED_RETRY_MS * 2 ** retry), spec.signal);
      else if (outcome !== "now") return outcome;
    }
  }

  /** Waits before a refused command tries again; ends early, failing, on abort or dispose. */
  private pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        this.stopped.signal.removeEventListener("abort", stop);
        if (signal?.aborted) reject(abortError());
        else if (this.stopping !== undefined) reject(this.stopping);
        else resolve();
      };
      const timer = setTimeout(stop, ms);
      signal?.addEventListener("abort", stop, { once: true });
      this.stopped.signal.addEventListener("abort", stop, { once: true });
    });
  }

  /**
   * Kills every running command and orphan (SIGKILL over control), gives up the connections that do not answer
   * within DISPOSE_KILL_WAIT_MS (their commands become orphans), kills orphans over a fresh connection when none is
   * left, and closes everything by `deadline`. Waiting commands fail with `error`.
   */
  async dispose(deadline: number, error: unknown): Promise<void> {
    this.stopping = error;
    this.stopped.abort();
    this.pool.stop(error);
    const running = [...this.running.keys()];
    const killed = [
      ...running.map((remote) => remote.kill("SIGKILL")), this.leftovers.clear(), ...running.map((remote) => remote.done),
    ];
    const spareTimer = setTimeout(() => void this.openSpare(deadline - DISPOSE_CLOSE_MS), DISPOSE_SPARE_AFTER_MS);
    await within(Promise.all(killed), Math.min(DISPOSE_KILL_WAIT_MS, deadline - DISPOSE_CLOSE_MS - Date.now()));
    clearTimeout(spareTimer);
    const silent = new Set([...this.running].flatMap(([remote, connection]) => (remote.finished ? [] : [connection])));
    for (const connection of silent) connection.destroy(); // its commands become orphans (onLost)
    await within(closed([...silent]), deadline - DISPOSE_CLOSE_MS - Date.now());
    await within(this.clearLeftoversAnyhow(deadline - DISPOSE_CLOSE_MS), deadline - DISPOSE_CLOSE_MS - Date.now());
    this.disposed = true;
    const connections = [...this.pool.openConnections(), ...(this.spareConnection ? [this.spareConnection] : [])];
    for (const connection of connections) connection.end();
    await within(closed(connections), deadline - Date.now());
    for (const connection of connections) connection.destroy();
  }

  /** Starts the command on the lease's connection, or says when to try again after the server refused the channel. */
  private async startOn(lease: Lease<NodeConnection>, spec: CommandSpec): Promise<RemoteProcess | "now" | "later"> {
    const { connection } = lease;
    const marker = newMarker();
    let envFile: string | undefined;
    try {
      if (Object.keys(spec.vars).length > 0) envFile = await this.writeEnvFile(connection, marker, spec.vars);
      if (this.stopping !== undefined) throw this.stopping;
      const line = remoteCommandLine({ command: spec.command, cwd: spec.cwd, shell: spec.shell, marker, pty: !!spec.pty, envFile });
      const channel = await openChannel(connection, line, spec.pty);
      const remote = startRemoteProcess({
        connection, channel, pty: !!spec.pty, marker,
        signalGroup: (pid, signal) => this.signalGroup(pid, signal),
        onLost: (pid, startTime) => this.remember(pid, startTime),
      });
      this.running.set(remote, connection);
      void remote.done.then(() => {
        this.running.delete(remote);
        lease.release();
      });
      await remote.started;
      return remote;
    } catch (error) {
      if (envFile !== undefined) void this.leftovers.removeEnvFile(envFile);
      if (error instanceof ChannelRefused) {
        const outcome = lease.refused(this.controlConnection === connection);
        if (outcome !== "never") return outcome;
        throw new ExecProcessError({ code: "node-channel-refused", param: "node", node: this.name, reason: error.message });
      }
      lease.release();
      throw error;
    }
  }

  /** Issue 20: the values go to a 0600 file written by the control shell, never onto a command line. */
  private async writeEnvFile(connection: NodeConnection, marker: string, vars: Record<string, string>): Promise<string> {
    let control: ControlChannel;
    try {
      control = await this.controlChannel();
    } catch (error) {
      const reason = `control channel: ${(error as Error).message.replace(/^\(SSH\) /, "")}`;
      throw new ExecProcessError({ code: "node-channel-refused", param: "node", node: this.name, reason });
    }
    const path = envFilePath(control.tempDir, marker);
    const status = await control.run(envFileLine(path, envScript(vars))).catch(() => -1);
    if (connection.closed) throw connectionClosed(this.name);
    if (status !== 0) throw new ExecProcessError({ code: "spawn-failed", reason: messages.nodeEnvNotDelivered(this.name) });
    return path;
  }

  private async runControl(line: string): Promise<number> {
    return (await this.controlChannel()).run(line);
  }

  private async signalGroup(pid: number, signal: Signal): Promise<void> {
    await this.runControl(remoteKillLine(pid, signal));
  }

  /** A command's connection was lost while it ran: its group is killed once the node is reached again. */
  private remember(pid: number | undefined, startTime: string | undefined): void {
    this.leftovers.addOrphan(pid, startTime);
    // Once every listener of the closed connection ran (its control channel closes too): another may still be up.
    setImmediate(() => {
      if (this.pool.openConnections().length > 0) void this.leftovers.clear();
    });
  }

  /** Dispose: clears the leftovers, over the spare connection (see openSpare) when no other is left. */
  private async clearLeftoversAnyhow(deadline: number): Promise<void> {
    if (this.leftovers.empty) return;
    await this.leftovers.clear();
    if (this.leftovers.empty || this.pool.openConnections().length > 0) return;
    if (await this.openSpare(deadline)) await this.leftovers.clear();
  }

  /** Dispose: connects once more, outside the pool and until `deadline`, only to kill orphans; opened at most once. */
  private openSpare(deadline: number): Promise<NodeConnection | undefined> {
    this.spare ??= (async () => {
      const connectTimeoutMs = Math.max(1, deadline - Date.now());
      const connection = await connectNode(this.name, this.node, { ...this.settings, connectTimeoutMs }).catch(() => undefined);
      if (!connection) return undefined;
      if (this.disposed) {
        connection.destroy(); // too late: dispose is closing everything
        return undefined;
      }
      this.spareConnection = connection;
      return connection;
    })();
    return this.spare;
  }

  /** A new connection: the control channel is opened at once if there is none, before commands fill the connection. */
  private async connected(): Promise<void> {
    await this.controlChannel().catch(() => undefined);
    await this.leftovers.clear();
  }

  private controlChannel(): Promise<ControlChannel> {
    if (this.control) return this.control;
    const opening = this.openControl();
    this.control = opening;
    const forget = (): void => {
      if (this.control !== opening) return;
      this.control = undefined;
      this.controlConnection = undefined;
    };
    opening.then((control) => control.onClose(forget), forget);
    return opening;
  }

  /** Opens the control channel on any open connection: each keeps a channel free for it. */
  private async openControl(): Promise<ControlChannel> {
    const connection = this.pool.openConnections()[0] ?? (this.spareConnection?.closed === false ? this.spareConnection : undefined);
    if (!connection) throw new Error(`no open connection to node "${this.name}"`);
    this.controlConnection = connection;
    const control = await openControlChannel(connection.client);
    control.onClose(connection.onClose(() => control.close()));
    return control;
  }
}

const closed = (connections: NodeConnection[]): Promise<unknown> =>
  Promise.all(connections.map((connection) => new Promise<void>((resolve) => connection.onClose(resolve))));

/** Waits for `work`, at most `ms` (it goes on unobserved after that). */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}
