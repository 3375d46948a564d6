// connectSessionHost: a SessionEngine whose sessions live in a session host (issue 33), for the toolkit, the
// middleware, the exit-event node and wakeOnExit as they are. Its connection is opened again on the next call after
// it broke; a host that answers as another instance has restarted, and the scopes this client used there are gone,
// which the next call of each such scope says once. Disposing it detaches: the sessions run on in the host.
import { connect as connectNet, type Socket } from "node:net";
import { connect as connectTls, type ConnectionOptions } from "node:tls";
import {
  type CallContext, type ExecDetails, type ExecParams, ExecProcessError, type HostUnreachableReason,
  type ProcessDetails, type ProcessFailureDetails, type ProcessParams, type SessionEngine, type SystemEvent,
  type ToolResult, type WakeListener, type WakeRequest, type WatchDetails, type WatchParams
} from "../engine/index.js";
import { HOST_DEFAULTS } from "./host-options.js";
import {
  HOST_PROTOCOL_VERSION, type CallParams, type ClaimResult, type HelloResult, type ProgressNotification, type WakeNotification,
} from "./protocol.js";
import { errorOf, RpcConnection } from "./rpc-connection.js";

export interface ConnectSessionHostOptions {
  /** The host's unix socket (exec-process-host prints it). @default process.env.EXEC_PROCESS_HOST_SOCKET */
  socketPath?: string;
  /** Or its TCP address: `tcp://127.0.0.1:7070`, or `tls://host:port` (with `tls` for a private CA). */
  url?: string;
  /** TLS options for a `tls://` url: `ca`, `servername`, a client certificate. */
  tls?: ConnectionOptions;
  /** @default process.env.EXEC_PROCESS_HOST_TOKEN */
  token?: string;
  /** The name errors give the host before it has answered. @default "exec-process-host" */
  name?: string;
  /** How long a connection and its greeting may take. @default 5000 */
  connectTimeoutMs?: number;
}

/** An engine served by a session host. */
export interface RemoteSessionEngine extends SessionEngine {
  drainSystemEvents(scopeKey: string): Promise<SystemEvent[]>;
  peekSystemEvents(scopeKey: string): Promise<SystemEvent[]>;
  clearFinishedSessions(scopeKey: string): Promise<number>;
  liveSessionIds(): Promise<string[]>;
  claimWakeRun(scopeKey: string): Promise<boolean>;
  releaseWakeRun(scopeKey: string): void;
  watch(params: WatchParams, ctx: CallContext): Promise<ToolResult<WatchDetails | ProcessFailureDetails>>;
  /** The host's name, as it gave it. */
  readonly hostName: string;
  /** Whether a connection to the host is open now (the next call opens one when not). */
  readonly connected: boolean;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** The longest message read from the host: far above any result the engine's output caps allow. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Reconnection attempts for wake subscribers after the connection broke, from the first delay to the last. */
const RECONNECT_DELAYS_MS = [250, 1_000, 2_000, 5_000];

/** Connects, authenticates and resolves to the remote engine; rejects with the host's error (token, limits, down). */
export async function connectSessionHost(options: ConnectSessionHostOptions): Promise<RemoteSessionEngine> {
  const remote = new RemoteEngine(options);
  await remote.connection();
  return remote;
}

type Transport = () => Socket;

function transportOf(options: ConnectSessionHostOptions): Transport {
  const invalid = (option: string, value: string, expected: string) =>
    new ExecProcessError({ code: "invalid-option", owner: "connectSessionHost", option, value, expected });
  if (options.socketPath !== undefined && options.url !== undefined) {
    throw invalid("url", options.url, "either socketPath or url, not both");
  }
  const socketPath = options.url === undefined ? options.socketPath ?? process.env[HOST_DEFAULTS.socketEnv] : undefined;
  if (options.url === undefined && !socketPath) {
    throw invalid("socketPath", "(none)", `the host's socket (exec-process-host prints it), url, or ${HOST_DEFAULTS.socketEnv}`);
  }
  if (socketPath) return () => connectNet({ path: socketPath });
  const url = new URL(options.url!);
  const port = Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!port) throw invalid("url", options.url!, "tcp://host:port or tls://host:port");
  if (url.protocol === "tcp:") return () => connectNet({ host, port });
  if (url.protocol === "tls:") return () => connectTls({ host, port, servername: host, ...options.tls });
  throw invalid("url", options.url!, "tcp://host:port or tls://host:port");
}

function unreachableReason(error: unknown): HostUnreachableReason {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ECONNREFUSED": return "not-listening";
    case "ENOENT": return "no-socket";
    case "EACCES": case "EPERM": return "access-denied";
    case "ETIMEDOUT": return "timed-out";
    default: return "closed";
  }
}

class RemoteEngine implements RemoteSessionEngine {
  readonly #options: ConnectSessionHostOptions;
  readonly #transport: Transport;
  readonly #token: string;
  #name: string;
  #connection: RpcConnection | undefined;
  #connecting: Promise<RpcConnection> | undefined;
  #instanceId: string | undefined;
  /** Scopes this client used on the current instance of the host. */
  readonly #scopes = new Set<string>();
  /** Scopes used on an instance that is gone: the next call of each says so, once. */
  readonly #goneScopes = new Set<string>();
  readonly #listeners = new Set<WakeListener>();
  readonly #progress = new Map<number, (result: ToolResult) => void>();
  #nextCallId = 1;
  /** Requests in flight: while there are some, the socket keeps this process alive. */
  #inFlight = 0;
  #disposed = false;
  #reconnectTimer: NodeJS.Timeout | undefined;

  constructor(options: ConnectSessionHostOptions) {
    this.#options = options;
    this.#transport = transportOf(options);
    const token = options.token ?? process.env[HOST_DEFAULTS.tokenEnv];
    if (typeof token !== "string" || token === "") {
      throw new ExecProcessError({
        code: "invalid-option", owner: "connectSessionHost", option: "token", value: "(none)", expected: `the host's token, or ${HOST_DEFAULTS.tokenEnv}`,
      });
    }
    this.#token = token;
    this.#name = options.name ?? HOST_DEFAULTS.name;
  }

  get hostName(): string {
    return this.#name;
  }

  get connected(): boolean {
    return this.#connection?.open === true;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  exec(params: ExecParams, ctx: CallContext): Promise<ToolResult<ExecDetails>> {
    return this.#call("exec", params as unknown as Record<string, unknown>, ctx) as Promise<ToolResult<ExecDetails>>;
  }

  process(params: ProcessParams, ctx: CallContext): Promise<ToolResult<ProcessDetails>> {
    return this.#call("process", params as unknown as Record<string, unknown>, ctx) as Promise<ToolResult<ProcessDetails>>;
  }

  // A disposed (detached) engine answers its queries empty, as the in-process engine does once disposed.
  /** The host engine's watch (issue 34): a watch tool over a remote engine wakes whichever worker claims the scope. */
  watch(params: WatchParams, ctx: CallContext): Promise<ToolResult<WatchDetails | ProcessFailureDetails>> {
    return this.#call("watch", params as unknown as Record<string, unknown>, ctx) as Promise<ToolResult<WatchDetails | ProcessFailureDetails>>;
  }

  drainSystemEvents(scopeKey: string): Promise<SystemEvent[]> {
    return this.#disposed ? Promise.resolve([]) : this.#request("drainSystemEvents", { scopeKey });
  }

  peekSystemEvents(scopeKey: string): Promise<SystemEvent[]> {
    return this.#disposed ? Promise.resolve([]) : this.#request("peekSystemEvents", { scopeKey });
  }

  clearFinishedSessions(scopeKey: string): Promise<number> {
    return this.#disposed ? Promise.resolve(0) : this.#request("clearFinishedSessions", { scopeKey });
  }

  liveSessionIds(): Promise<string[]> {
    return this.#disposed ? Promise.resolve([]) : this.#request("liveSessionIds", {});
  }

  async claimWakeRun(scopeKey: string): Promise<boolean> {
    return (await this.#request<ClaimResult>("claimWakeRun", { scopeKey })).granted;
  }

  releaseWakeRun(scopeKey: string): void {
    void this.#request("releaseWakeRun", { scopeKey }).catch(() => undefined); // a lost connection releases it too
  }

  addWakeListener(listener: WakeListener): () => void {
    if (this.#disposed) {
      listener.onDispose?.();
      return () => undefined;
    }
    this.#listeners.add(listener);
    const connection = this.#connection;
    if (connection?.open) this.#subscribe(connection, [listener]);
    else this.#scheduleReconnect(0);
    return () => void this.#listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    clearTimeout(this.#reconnectTimer);
    this.#connection?.close();
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) {
      try {
        listener.onDispose?.();
      } catch {
        // the embedder's callback failed
      }
    }
  }

  /** The open connection, or a new one (greeted); rejects with session-host-unreachable or the host's refusal. */
  connection(): Promise<RpcConnection> {
    if (this.#disposed) return Promise.reject(new ExecProcessError({ code: "engine-disposed" }));
    if (this.#connection?.open) return Promise.resolve(this.#connection);
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<RpcConnection> {
    const socket = await this.#openSocket();
    const connection = new RpcConnection(socket, {
      maxLineBytes: MAX_ANSWER_BYTES,
      oversizedError: () => new ExecProcessError({ code: "request-too-large", limitBytes: MAX_ANSWER_BYTES }),
    });
    connection.method<ProgressNotification, void>("progress", ({ callId, result }) => this.#progress.get(callId)?.(result));
    connection.method<WakeNotification, void>("wake", ({ request }) => this.#deliverWake(request));
    let hello: HelloResult;
    try {
      hello = await this.#withTimeout(connection.request<HelloResult>("hello", { token: this.#token, protocolVersion: HOST_PROTOCOL_VERSION }));
    } catch (error) {
      connection.destroy();
      throw errorOf(error) ?? this.#unreachable(error);
    }
    this.#name = hello.name;
    if (this.#instanceId !== undefined && hello.instanceId !== this.#instanceId) {
      for (const scopeKey of this.#scopes) this.#goneScopes.add(scopeKey);
      this.#scopes.clear();
    }
    this.#instanceId = hello.instanceId;
    this.#connection = connection;
    this.#updateRef();
    connection.onClose(() => {
      if (this.#connection === connection) this.#connection = undefined;
      if (this.#listeners.size > 0) this.#scheduleReconnect(0);
    });
    if (this.#listeners.size > 0) this.#subscribe(connection, [...this.#listeners]);
    return connection;
  }

  async #openSocket(): Promise<Socket> {
    const socket = this.#transport();
    socket.on("error", () => undefined); // what counts is the first error, below; a later one must not throw
    try {
      return await this.#withTimeout(new Promise<Socket>((resolve, reject) => {
        socket.once("error", (error) => reject(this.#unreachable(error)));
        socket.once(this.#options.url?.startsWith("tls:") ? "secureConnect" : "connect", () => resolve(socket));
      }));
    } catch (error) {
      socket.destroy(); // refused, or no answer in time
      throw error;
    }
  }

  #withTimeout<T>(promise: Promise<T>): Promise<T> {
    const timeoutMs = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(this.#unreachable({ code: "ETIMEDOUT" })), timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  #unreachable(error: unknown): ExecProcessError {
    if (ExecProcessError.is(error)) return error;
    return new ExecProcessError({ code: "session-host-unreachable", host: this.#name, reason: unreachableReason(error) }, { cause: error });
  }

  #subscribe(connection: RpcConnection, listeners: WakeListener[]): void {
    const scopes = new Set(listeners.map((listener) => listener.scopeKey ?? null));
    for (const scopeKey of scopes) void connection.request("subscribe", { scopeKey }).catch(() => undefined);
  }

  #deliverWake(request: WakeRequest): void {
    for (const listener of [...this.#listeners]) {
      if (listener.scopeKey !== undefined && listener.scopeKey !== request.scopeKey) continue;
      try {
        listener.onWake({ ...request });
      } catch {
        // NOTIFY-11: a subscriber's error changes nothing
      }
    }
  }

  /** Wake subscribers need a connection to hear from the host: it is opened again after a break, with backoff. */
  #scheduleReconnect(attempt: number): void {
    if (this.#disposed || this.#reconnectTimer !== undefined || this.#listeners.size === 0) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#connection?.open) return;
      this.connection().catch(() => this.#scheduleReconnect(attempt + 1));
    }, attempt === 0 ? 0 : delay);
    this.#reconnectTimer.unref();
  }

  /** A request on the connection (opened first when needed), with the host's errors as ExecProcessErrors. */
  async #request<Result>(method: string, params: Record<string, unknown>, scopeKey?: string): Promise<Result> {
    this.#inFlight += 1;
    this.#updateRef();
    try {
      const connection = await this.connection();
      if (scopeKey !== undefined) this.#enterScope(scopeKey);
      try {
        return await connection.request<Result>(method, params);
      } catch (error) {
        const carried = errorOf(error);
        if (carried) throw carried;
        if (!connection.open) throw new ExecProcessError({ code: "session-host-lost", host: this.#name }, { cause: error });
        throw error;
      }
    } finally {
      this.#inFlight -= 1;
      this.#updateRef();
    }
  }

  /** A scope used before the host restarted fails its next call once, with what happened (never "No session found"). */
  #enterScope(scopeKey: string): void {
    if (this.#goneScopes.delete(scopeKey)) {
      this.#scopes.add(scopeKey);
      throw new ExecProcessError({ code: "session-host-restarted", host: this.#name, scopeKey });
    }
    this.#scopes.add(scopeKey);
  }

  async #call(method: "exec" | "process" | "watch", params: Record<string, unknown>, ctx: CallContext): Promise<ToolResult> {
    const callId = this.#nextCallId++;
    const { signal, onUpdate } = ctx;
    const call: CallParams = {
      callId, scopeKey: ctx.scopeKey, params,
      ...(ctx.processToolAvailable !== undefined ? { processToolAvailable: ctx.processToolAvailable } : {}),
      ...(ctx.allowElevated !== undefined ? { allowElevated: ctx.allowElevated } : {}),
      ...(signal?.aborted ? { aborted: true } : {}),
      ...(onUpdate ? { progress: true } : {}),
    };
    if (onUpdate) this.#progress.set(callId, onUpdate as (result: ToolResult) => void);
    const cancel = (): void => this.#connection?.notify("cancel", { callId });
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await this.#request<ToolResult>(method, call as unknown as Record<string, unknown>, ctx.scopeKey);
    } finally {
      signal?.removeEventListener("abort", cancel);
      this.#progress.delete(callId);
    }
  }

  /** The socket holds the process open only while a request waits for its answer, as a local call would. */
  #updateRef(): void {
    this.#connection?.setRef(this.#inFlight > 0);
  }
}
