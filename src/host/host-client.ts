// One client connection of a session host: its greeting (token, protocol version, the client limit), then the
// engine's methods for the scopes it uses (the scope limit), the wake requests of the scopes it subscribed to, and
// the abort of its calls in flight. Its end leaves its sessions running: they belong to their scopes.
import type { Socket } from "node:net";
import {
  type CallContext, type ExecParams, ExecProcessError, type LocalSessionEngine, type ProcessParams, type ToolResult,
  type WakeRequest, type WatchParams
} from "../engine/index.js";
import { tokenMatches } from "./host-auth.js";
import type { ResolvedHostOptions } from "./host-options.js";
import { HOST_DEFAULTS } from "./host-options.js";
import {
  HOST_PROTOCOL_VERSION, type CallParams, type CancelNotification, type ClaimResult, type HelloParams, type HelloResult,
  type ScopeParams, type SubscribeParams,
} from "./protocol.js";
import { RpcConnection } from "./rpc-connection.js";
import type { WakeClaims } from "./wake-claims.js";

/** What every client of one host shares. */
export interface HostContext {
  settings: ResolvedHostOptions;
  engine: LocalSessionEngine;
  instanceId: string;
  claims: WakeClaims;
  clients: ReadonlySet<HostClient>;
}

export class HostClient {
  readonly #context: HostContext;
  readonly #connection: RpcConnection;
  #authenticated = false;
  readonly #scopes = new Set<string>();
  /** Scopes whose wake requests go to this client; null: every scope's. */
  readonly #subscriptions = new Set<string | null>();
  readonly #calls = new Map<number, AbortController>();
  /** The exec and process calls in flight, settled or not: the host's shutdown sends their results before it ends. */
  readonly #running = new Set<Promise<unknown>>();
  readonly #helloTimer: NodeJS.Timeout;

  constructor(socket: Socket, context: HostContext) {
    this.#context = context;
    const { settings } = context;
    const helloBytes = Math.min(settings.maxRequestBytes, HOST_DEFAULTS.maxHelloBytes);
    this.#connection = new RpcConnection(socket, {
      maxLineBytes: helloBytes,
      oversizedError: () => new ExecProcessError({
        code: "request-too-large", limitBytes: this.#authenticated ? settings.maxRequestBytes : helloBytes,
      }),
      onInternalError: (method, error) => settings.log(`${settings.name}: ${method} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`),
    });
    this.#helloTimer = setTimeout(() => this.#connection.destroy(), HOST_DEFAULTS.helloTimeoutMs);
    this.#connection.onClose(() => clearTimeout(this.#helloTimer));
    this.#serve();
  }

  get authenticated(): boolean {
    return this.#authenticated;
  }

  onClose(listener: () => void): void {
    this.#connection.onClose(listener);
  }

  destroy(): void {
    this.#connection.destroy();
  }

  /** Once the calls in flight have answered (a shutdown settles them), ends the connection after what is queued. */
  async end(): Promise<void> {
    await Promise.allSettled([...this.#running]);
    await new Promise((resolve) => setImmediate(resolve)); // their answers are written in the microtasks that follow
    this.#connection.close();
  }

  pushWake(request: WakeRequest): void {
    if (!this.#authenticated) return;
    if (this.#subscriptions.has(null) || this.#subscriptions.has(request.scopeKey)) this.#connection.notify("wake", { request });
  }

  #serve(): void {
    const { engine, claims } = this.#context;
    const connection = this.#connection;
    connection.method<HelloParams, HelloResult>("hello", (params) => this.#hello(params));
    connection.method<CallParams, ToolResult>("exec", (params) => this.#call(params, (ctx) => engine.exec(params.params as unknown as ExecParams, ctx)));
    connection.method<CallParams, ToolResult>("process", (params) => this.#call(params, (ctx) => engine.process(params.params as unknown as ProcessParams, ctx)));
    connection.method<CallParams, ToolResult>("watch", (params) => this.#call(params, (ctx) => engine.watch!(params.params as unknown as WatchParams, ctx)));
    connection.method<CancelNotification, void>("cancel", ({ callId }) => {
      if (this.#authenticated) this.#calls.get(callId)?.abort();
    });
    connection.method<ScopeParams, unknown>("drainSystemEvents", (params) => engine.drainSystemEvents(this.#scope(params)));
    connection.method<ScopeParams, unknown>("peekSystemEvents", (params) => engine.peekSystemEvents(this.#scope(params)));
    connection.method<ScopeParams, unknown>("clearFinishedSessions", (params) => engine.clearFinishedSessions(this.#scope(params)));
    connection.method<unknown, string[]>("liveSessionIds", () => {
      this.#requireHello();
      return engine.liveSessionIds();
    });
    connection.method<SubscribeParams, null>("subscribe", ({ scopeKey }) => {
      if (scopeKey === null) {
        this.#requireHello();
        this.#subscriptions.add(null);
      } else {
        this.#subscriptions.add(this.#scope({ scopeKey }));
      }
      return null;
    });
    connection.method<ScopeParams, ClaimResult>("claimWakeRun", (params) => ({ granted: claims.claim(this.#scope(params), this) }));
    connection.method<ScopeParams, null>("releaseWakeRun", (params) => {
      claims.release(this.#scope(params), this);
      return null;
    });
  }

  #hello({ token, protocolVersion }: HelloParams): HelloResult {
    const { settings, instanceId, clients } = this.#context;
    if (!tokenMatches(token, settings.token)) this.#refuse({ code: "session-host-refused", host: settings.name, reason: "bad-token" });
    if (protocolVersion !== HOST_PROTOCOL_VERSION) {
      this.#refuse({ code: "session-host-refused", host: settings.name, reason: "protocol-version" });
    }
    const connected = [...clients].filter((client) => client.authenticated).length;
    if (!this.#authenticated && connected >= settings.maxClients) {
      this.#refuse({ code: "session-host-limit", host: settings.name, limit: "clients", max: settings.maxClients });
    }
    this.#authenticated = true;
    this.#connection.setMaxLineBytes(settings.maxRequestBytes);
    clearTimeout(this.#helloTimer);
    return { name: settings.name, instanceId, protocolVersion: HOST_PROTOCOL_VERSION };
  }

  /** Answers with the error, then ends the connection: a refused client gets nothing more. */
  #refuse(data: ConstructorParameters<typeof ExecProcessError>[0]): never {
    const error = new ExecProcessError(data);
    this.#context.settings.log(`${this.#context.settings.name}: a client was refused: ${error.message}`);
    setImmediate(() => this.#connection.close());
    throw error;
  }

  #requireHello(): void {
    if (!this.#authenticated) this.#refuse({ code: "session-host-refused", host: this.#context.settings.name, reason: "not-authenticated" });
  }

  /** The call's scope, once the client is authenticated and within its scope limit. */
  #scope({ scopeKey }: Partial<ScopeParams>): string {
    this.#requireHello();
    const { settings } = this.#context;
    if (typeof scopeKey !== "string" || scopeKey === "") {
      throw new ExecProcessError({ code: "invalid-option", owner: "connectSessionHost", option: "scopeKey", value: String(scopeKey), expected: "a non-empty string" });
    }
    if (!this.#scopes.has(scopeKey)) {
      if (this.#scopes.size >= settings.maxScopesPerClient) {
        throw new ExecProcessError({ code: "session-host-limit", host: settings.name, limit: "scopes", max: settings.maxScopesPerClient });
      }
      this.#scopes.add(scopeKey);
    }
    return scopeKey;
  }

  /** An exec or process call: aborted by the client's `cancel`, never by its leaving (the job is the scope's). */
  async #call(params: CallParams, run: (ctx: CallContext) => Promise<ToolResult>): Promise<ToolResult> {
    const scopeKey = this.#scope(params);
    const { callId } = params;
    const controller = new AbortController();
    if (params.aborted === true) controller.abort();
    this.#calls.set(callId, controller);
    const ctx: CallContext = {
      scopeKey,
      signal: controller.signal,
      ...(params.processToolAvailable !== undefined ? { processToolAvailable: params.processToolAvailable === true } : {}),
      ...(params.allowElevated !== undefined ? { allowElevated: params.allowElevated === true } : {}),
      ...(params.progress === true ? { onUpdate: (result: ToolResult) => this.#connection.notify("progress", { callId, result }) } : {}),
    };
    const running = run(ctx);
    this.#running.add(running);
    try {
      return await running;
    } finally {
      this.#calls.delete(callId);
      this.#running.delete(running);
    }
  }
}
