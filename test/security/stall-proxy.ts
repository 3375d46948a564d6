// A TCP proxy on 127.0.0.1 in front of the fixture's sshd that can stop forwarding, to stall SSH connections the
// way a dead link or a hung middlebox does: no reset, no close, just silence (keepalive is what notices).
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface StallProxy {
  readonly port: number;
  /**
   * Stops forwarding on every open connection; with `newConnections`, also on every later one; with `delayNewMs`,
   * later ones are forwarded only after that long (a loaded node slow to answer a new connection).
   */
  stall(options?: { newConnections?: boolean; delayNewMs?: number }): void;
  /** When (Date.now()) each connection was accepted, in order. */
  readonly acceptedAt: readonly number[];
  /** Forwards new connections again (stalled ones stay stalled). */
  resume(): void;
  /** Closes the listener and every connection. */
  close(): Promise<void>;
}

export async function startStallProxy(targetPort: number): Promise<StallProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let stallNew = false;
  let delayNewMs = 0;
  const acceptedAt: number[] = [];
  const server: Server = createServer((client) => {
    acceptedAt.push(Date.now());
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    if (stallNew) return halt(pair); // accepted, then silence
    if (delayNewMs === 0) return forward(pair);
    const timer = setTimeout(() => forward(pair), delayNewMs);
    client.once("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return {
    port: address.port,
    acceptedAt,
    stall(options = {}) {
      stallNew = options.newConnections === true;
      delayNewMs = options.delayNewMs ?? 0;
      for (const pair of pairs) halt(pair);
    },
    resume() {
      stallNew = false;
      delayNewMs = 0;
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward([client, upstream]: [Socket, Socket]): void {
  client.pipe(upstream);
  upstream.pipe(client);
}

function halt([client, upstream]: [Socket, Socket]): void {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}
