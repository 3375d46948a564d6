// The per-node connection pool with fake connections: the channel limit per connection (one kept for control), more
// connections up to the limit, a FIFO queue beyond it that honours abort and stop, and what a refused channel teaches.
import { describe, expect, it } from "vitest";
import { ConnectionPool, type Lease, type PoolConnection } from "../../src/executors/ssh/connection-pool.js";
import { ExecProcessError } from "../../src/engine/errors.js";

class FakeConnection implements PoolConnection {
  closed = false;
  private readonly listeners = new Set<() => void>();
  constructor(readonly id: number) {}
  onClose(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close(): void {
    this.closed = true;
    for (const listener of this.listeners) listener();
  }
}

function poolOf(maxSessionsPerConnection: number, maxConnections: number, connect?: (id: number) => Promise<FakeConnection>) {
  const made: FakeConnection[] = [];
  const pool = new ConnectionPool<FakeConnection>(async () => {
    const id = made.length + 1;
    const connection = connect ? await connect(id) : new FakeConnection(id);
    made.push(connection);
    return connection;
  }, { maxSessionsPerConnection, maxConnections });
  return { pool, made };
}

/** Whether `promise` settled by the time everything already queued ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
}

const connectionIds = (leases: Array<Lease<FakeConnection>>): number[] => leases.map((lease) => lease.connection.id);

describe("ConnectionPool", () => {
  it("gives a connection at most maxSessionsPerConnection - 1 commands, then opens another up to maxConnections", async () => {
    const { pool, made } = poolOf(3, 2);
    const leases = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(connectionIds(leases)).toEqual([1, 1, 2, 2]);
    const fifth = pool.acquire();
    expect(await settled(fifth)).toBe(false);
    expect(made).toHaveLength(2);
    expect(pool.waiting).toBe(1);
  });

  it("hands a released channel to the command that waited longest", async () => {
    const { pool } = poolOf(2, 1);
    const first = await pool.acquire();
    const order: string[] = [];
    const second = pool.acquire().then((lease) => (order.push("second"), lease));
    const third = pool.acquire().then((lease) => (order.push("third"), lease));
    first.release();
    (await second).release();
    await third;
    expect(order).toEqual(["second", "third"]);
  });

  it("a waiting command that is aborted fails with AbortError and gives up its place", async () => {
    const { pool } = poolOf(2, 1);
    const first = await pool.acquire();
    const controller = new AbortController();
    const aborted = pool.acquire(controller.signal);
    const next = pool.acquire();
    controller.abort();
    const error = await aborted.catch((reason: unknown) => reason);
    expect(ExecProcessError.is(error, "aborted")).toBe(true);
    first.release();
    expect((await next).connection.id).toBe(1);
    expect(pool.waiting).toBe(0);
  });

  it("a command aborted while its connection opens gives its channel back", async () => {
    let open: (connection: FakeConnection) => void = () => {};
    const { pool } = poolOf(2, 1, (id) => new Promise((resolve) => (open = () => resolve(new FakeConnection(id)))));
    const controller = new AbortController();
    const early = pool.acquire(controller.signal);
    const later = pool.acquire();
    controller.abort();
    await expect(early).rejects.toThrow("aborted");
    open(new FakeConnection(1));
    expect((await later).connection.id).toBe(1);
  });

  it("stop fails every waiting and every later command with the given error", async () => {
    const { pool } = poolOf(2, 1);
    await pool.acquire();
    const waiting = pool.acquire();
    const error = new ExecProcessError({ code: "engine-disposed" });
    pool.stop(error);
    await expect(waiting).rejects.toBe(error);
    await expect(pool.acquire()).rejects.toBe(error);
  });

  it("a connection that cannot open fails the commands given its channels; a later command tries again", async () => {
    let attempts = 0;
    const { pool } = poolOf(3, 1, async (id) => {
      attempts += 1;
      if (attempts === 1) throw new Error("no route");
      return new FakeConnection(id);
    });
    const results = await Promise.allSettled([pool.acquire(), pool.acquire()]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect((await pool.acquire()).connection.id).toBe(1);
  });

  it("a closed connection's channels are not handed out again: waiting commands get a new connection", async () => {
    const { pool, made } = poolOf(2, 1);
    const first = await pool.acquire();
    const waiting = pool.acquire();
    first.connection.close();
    first.release();
    expect((await waiting).connection.id).toBe(2);
    expect(made.map((connection) => connection.closed)).toEqual([true, false]);
    expect(pool.openConnections().map((connection) => connection.id)).toEqual([2]);
  });

  it("a channel refused beside the control channel: the connection keeps to the commands it has, and the command waits", async () => {
    const { pool } = poolOf(10, 1);
    const [first, second, third] = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(third?.refused(true)).toBe("now"); // the server's limit: 2 commands + control
    const retry = pool.acquire(undefined, true);
    expect(await settled(retry)).toBe(false);
    first?.release();
    expect((await retry).connection.id).toBe(1);
    expect(second?.connection.id).toBe(1);
  });

  it("a channel refused with control elsewhere: the connection keeps one channel free for control", async () => {
    const { pool } = poolOf(10, 1);
    const [first, second, third] = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(third?.refused(false)).toBe("now"); // the server's limit: 2 channels, one of them kept for control
    const retry = pool.acquire(undefined, true);
    first?.release();
    expect(await settled(retry)).toBe(false);
    second?.release();
    expect((await retry).connection.id).toBe(1);
  });

  it("a channel refused just after a command's channel closed is the server still counting it: try later, limit kept", async () => {
    const { pool } = poolOf(4, 1);
    const [first, , third] = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    first?.release();
    expect(third?.refused(true)).toBe("later");
    const leases = await Promise.all([pool.acquire(), pool.acquire()]);
    expect(connectionIds(leases)).toEqual([1, 1]); // still 3 commands on the connection
  });

  it.each([[false, 1], [true, 1], [false, 2]])("a refusal that leaves no channel for a command is final (control here: %s, open: %i)", async (controlHere, open) => {
    const { pool } = poolOf(3, 1);
    const leases = await Promise.all(Array.from({ length: open }, () => pool.acquire()));
    expect(leases.at(-1)?.refused(controlHere)).toBe("never");
  });
});
