// One JSON-RPC 2.0 connection, both ways (json-rpc-2.0's JSONRPCServerAndClient), over a socket carrying one
// message per line. Lines are bounded (BoundedLines): an oversized one is answered with INVALID_REQUEST and the
// connection goes on. A method's ExecProcessError reaches the other side as ENGINE_ERROR with its data.
import type { Socket } from "node:net";
import {
  JSONRPCClient, JSONRPCErrorException, JSONRPCServer, JSONRPCServerAndClient, type JSONRPCParams,
} from "json-rpc-2.0";
import { ExecProcessError } from "../engine/index.js";
import { BoundedLines, type MessageId } from "./bounded-lines.js";
import { HOST_ERROR_CODES, type EngineErrorData } from "./protocol.js";

export interface RpcConnectionOptions {
  /** The longest message read, in bytes without its newline. */
  maxLineBytes: number;
  /** The answer to an oversized request: the error a line over the limit gets. */
  oversizedError(): ExecProcessError;
  /** Errors of methods that are not ExecProcessErrors (for a log); the peer gets a plain "internal error". */
  onInternalError?(method: string, error: unknown): void;
}

export class RpcConnection {
  readonly #socket: Socket;
  readonly #peer: JSONRPCServerAndClient;
  #options: RpcConnectionOptions;
  #open = true;
  readonly #closeListeners: Array<() => void> = [];
  readonly #lines: BoundedLines;

  constructor(socket: Socket, options: RpcConnectionOptions) {
    this.#socket = socket;
    this.#options = options;
    this.#peer = new JSONRPCServerAndClient(
      new JSONRPCServer({ errorListener: () => undefined }),
      new JSONRPCClient((payload) => this.#write(payload)),
    );
    const lines = new BoundedLines(options.maxLineBytes, (id) => this.#refuseOversized(id));
    this.#lines = lines;
    socket.pipe(lines);
    let pending = "";
    lines.setEncoding("utf8");
    lines.on("data", (chunk: string) => {
      pending += chunk;
      for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim() !== "") this.#receive(line);
      }
    });
    socket.on("error", () => undefined); // a reset connection ends in "close", which is what counts
    socket.once("close", () => this.#closed());
  }

  get open(): boolean {
    return this.#open;
  }

  /** Serves `method`; what `handler` throws goes back as a JSON-RPC error (ExecProcessError: with its data). */
  method<Params, Result>(name: string, handler: (params: Params) => Result | Promise<Result>): void {
    this.#peer.addMethod(name, async (params: JSONRPCParams) => {
      try {
        return await handler(params as Params);
      } catch (error) {
        throw this.#toRpcError(name, error);
      }
    });
  }

  /** Sends a request; rejects with the peer's error as ExecProcessError when it carries one (see `errorOf`). */
  request<Result>(method: string, params: object): Promise<Result> {
    return Promise.resolve(this.#peer.request(method, params as JSONRPCParams)) as Promise<Result>;
  }

  notify(method: string, params: object): void {
    if (this.#open) this.#peer.notify(method, params as JSONRPCParams);
  }

  onClose(listener: () => void): void {
    if (this.#open) this.#closeListeners.push(listener);
    else listener();
  }

  /** The longest message read from now on. */
  setMaxLineBytes(maxBytes: number): void {
    this.#options = { ...this.#options, maxLineBytes: maxBytes };
    this.#lines.setLimit(maxBytes);
  }

  /** Whether the connection keeps the process alive (a socket does by default). */
  setRef(held: boolean): void {
    if (held) this.#socket.ref();
    else this.#socket.unref();
  }

  /** Sends what is queued, then ends the connection. */
  close(): void {
    if (this.#open) this.#socket.end();
  }

  /** Ends the connection at once. */
  destroy(): void {
    this.#socket.destroy();
  }

  #receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.#write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a line that is not JSON." } });
      return;
    }
    void this.#peer.receiveAndSend(message as never).catch(() => undefined);
  }

  #refuseOversized(id: MessageId | null): void {
    const error = this.#options.oversizedError();
    this.#write({ jsonrpc: "2.0", id, error: { code: HOST_ERROR_CODES.INVALID_REQUEST, message: error.message, data: engineErrorData(error) } });
  }

  #write(payload: unknown): void {
    if (this.#open && this.#socket.writable) this.#socket.write(`${JSON.stringify(payload)}\n`);
  }

  #toRpcError(method: string, error: unknown): JSONRPCErrorException {
    if (ExecProcessError.is(error)) return new JSONRPCErrorException(error.message, HOST_ERROR_CODES.ENGINE_ERROR, engineErrorData(error));
    this.#options.onInternalError?.(method, error);
    return new JSONRPCErrorException("Internal error of the session host (see its log).", HOST_ERROR_CODES.INTERNAL_ERROR);
  }

  #closed(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#peer.rejectAllPendingRequests("connection closed");
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}

function engineErrorData(error: ExecProcessError): EngineErrorData {
  return { execProcessError: error.data };
}

/** The ExecProcessError a peer's error answer carries, or undefined. */
export function errorOf(error: unknown): ExecProcessError | undefined {
  if (!(error instanceof JSONRPCErrorException)) return undefined;
  const data = (error.data as Partial<EngineErrorData> | undefined)?.execProcessError;
  return data && typeof data.code === "string" ? new ExecProcessError(data) : undefined;
}
