// The connections of one node and their channels (issue 20): at most `maxSessionsPerConnection` channels per
// connection, one of them kept for the node's control channel; more commands open another connection, up to
// `maxConnections`; beyond that they wait in order (FIFO) for a free channel, and a waiting command still honours
// its abort signal and the executor's dispose.
import { abortError } from "../../engine/index.js";
import { CONTROL_CHANNELS } from "./ssh-options.js";

export interface PoolConnection {
  readonly closed: boolean;
  onClose(listener: () => void): () => void;
}

export interface PoolLimits {
  maxSessionsPerConnection: number;
  maxConnections: number;
}

/** The right to open one command channel on `connection`, until `release()`. */
export interface Lease<C> {
  readonly connection: C;
  release(): void;
  /**
   * The server refused the channel; the lease is released. Shortly after a command of the connection ended, that
   * is the server still counting it (sshd frees a session once it reaped its process): "later", acquire again after
   * a pause. Otherwise the channels open on the connection (the other commands', and the control channel's when
   * `controlHere`) are its limit, and the connection takes that many less the one kept for control from now on:
   * "now", acquire again, or "never" when that leaves no channel for a command at all.
   */
  refused(controlHere: boolean): RefusalOutcome;
}

export type RefusalOutcome = "later" | "now" | "never";

/** How long after a command's channel closed a refusal is taken for the server still counting that channel. */
export const RECENT_RELEASE_MS = 1_000;

interface Entry<C> {
  connection?: C;
  ready: Promise<C>;
  leases: number;
  sessionLimit: number;
  closed: boolean;
  /** When a command's channel on this connection last closed (0: never). */
  releasedAt: number;
}

interface Waiter<C> {
  resolve(lease: Lease<C>): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  entry?: Entry<C>;
  settled: boolean;
}

export class ConnectionPool<C extends PoolConnection> {
  private readonly entries: Entry<C>[] = [];
  private readonly waiters: Waiter<C>[] = [];
  /** Waiters given a channel of a connection that is still opening. */
  private readonly assigned = new Set<Waiter<C>>();
  private stopped: unknown;

  constructor(
    private readonly connect: () => Promise<C>,
    private readonly limits: PoolLimits,
    private readonly onConnected: (connection: C) => void = () => {},
  ) {}

  /** A lease on a connection with a free channel; waits in order when every connection is full. */
  acquire(signal?: AbortSignal, first = false): Promise<Lease<C>> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter<C> = { resolve, reject, settled: false, ...(signal ? { signal } : {}) };
      if (signal) {
        waiter.onAbort = () => this.cancel(waiter, abortError());
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      if (first) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
      this.pump();
    });
  }

  /** The connections that are up. */
  openConnections(): C[] {
    return this.entries.flatMap((entry) => (entry.connection && !entry.closed ? [entry.connection] : []));
  }

  /** Commands waiting for a channel. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Refuses every waiting and later acquire with `error`; returns the connections for the caller to close. */
  stop(error: unknown): C[] {
    this.stopped = error;
    for (const waiter of [...this.waiters, ...this.assigned]) this.cancel(waiter, error);
    return this.openConnections();
  }

  private pump(): void {
    if (this.stopped !== undefined) return;
    while (this.waiters.length > 0) {
      const entry = this.entries.find((candidate) => !candidate.closed && candidate.leases < capacity(candidate)) ??
        (this.entries.length < this.limits.maxConnections ? this.openEntry() : undefined);
      if (!entry) return;
      const waiter = this.waiters.shift() as Waiter<C>;
      entry.leases += 1;
      waiter.entry = entry;
      if (entry.connection) this.grant(waiter, entry, entry.connection);
      else {
        this.assigned.add(waiter);
        entry.ready.then(
          (connection) => this.grant(waiter, entry, connection),
          (error: unknown) => {
            this.assigned.delete(waiter);
            this.settle(waiter, () => waiter.reject(error));
          },
        );
      }
    }
  }

  private openEntry(): Entry<C> {
    const entry: Entry<C> = {
      ready: this.connect(), leases: 0, sessionLimit: this.limits.maxSessionsPerConnection, closed: false, releasedAt: 0,
    };
    this.entries.push(entry);
    entry.ready.then((connection) => {
      entry.connection = connection;
      connection.onClose(() => this.drop(entry));
      if (!connection.closed) this.onConnected(connection);
    }, () => this.drop(entry));
    return entry;
  }

  private drop(entry: Entry<C>): void {
    if (entry.closed) return;
    entry.closed = true;
    const index = this.entries.indexOf(entry);
    if (index >= 0) this.entries.splice(index, 1);
    this.pump();
  }

  private grant(waiter: Waiter<C>, entry: Entry<C>, connection: C): void {
    this.assigned.delete(waiter);
    if (waiter.settled) return; // aborted or stopped while the connection opened: its channel was given back then
    let released = false;
    const giveBack = (): void => {
      if (released) return;
      released = true;
      entry.leases -= 1;
      this.pump();
    };
    const lease: Lease<C> = {
      connection,
      release: () => {
        if (!released) entry.releasedAt = Date.now();
        giveBack();
      },
      refused: (controlHere) => {
        if (Date.now() - entry.releasedAt < RECENT_RELEASE_MS) {
          giveBack();
          return "later";
        }
        entry.sessionLimit = Math.min(entry.sessionLimit, entry.leases - 1 + (controlHere ? CONTROL_CHANNELS : 0));
        giveBack();
        return capacity(entry) > 0 ? "now" : "never";
      },
    };
    this.settle(waiter, () => waiter.resolve(lease));
  }

  private cancel(waiter: Waiter<C>, error: unknown): void {
    if (waiter.settled) return;
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    else if (waiter.entry && this.assigned.delete(waiter)) {
      waiter.entry.leases -= 1; // assigned to a connection still opening: give the channel back now
    }
    this.settle(waiter, () => waiter.reject(error));
    if (this.stopped === undefined) this.pump();
  }

  /** Runs `outcome` once per waiter (not after it was aborted or stopped). */
  private settle(waiter: Waiter<C>, outcome: () => void): void {
    if (waiter.settled) return;
    waiter.settled = true;
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    outcome();
  }
}

/** Command channels of a connection: its session limit less the channel kept for control. */
const capacity = (entry: Entry<unknown>): number => entry.sessionLimit - CONTROL_CHANNELS;
