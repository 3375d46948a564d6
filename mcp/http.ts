// Streamable HTTP (--http): every MCP session (Mcp-Session-Id) is a scope of its own, with its own engine. A session
// ends when the client deletes it, when it stays idle past the session timeout, or when the server stops; its
// processes end with it. At most --max-sessions are open at once, and a request whose client leaves before its
// answer is cancelled as by notifications/cancelled (issue 32).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { HttpRefusalReason } from "../src/engine/index.js";
import { TransportFailure } from "./fatal.js";
import { refusal, refusedText, sessionLimitRefusal, tooLargeRefusal, type Refusal } from "./http-guard.js";
import { MAX_INITIALIZE_BYTES, MAX_REQUEST_BYTES, type HttpOptions } from "./options.js";
import { openScope, type McpScope, type ScopeSettings } from "./scope.js";

/** The one path the server answers on (the unknown-path refusal names it). */
export const MCP_PATH = "/mcp";
/** The reason of the cancel a request gets when its client leaves before the answer. */
const CLIENT_LEFT = "the HTTP client disconnected before the answer";

export interface HttpServer {
  /** e.g. http://127.0.0.1:8808/mcp */
  readonly url: string;
  /** MCP sessions open now. */
  sessionCount(): number;
  /** Rejects with a TransportFailure when the server's socket fails after it listens; never resolves. */
  readonly failed: Promise<never>;
  /** Stops listening and ends every session with its processes. */
  close(): Promise<void>;
}

interface Session {
  scope: McpScope;
  transport: StreamableHTTPServerTransport;
  /** Requests and streams open now: a session with one open is not idle. */
  open: number;
  idleTimer: NodeJS.Timeout | undefined;
  ending: Promise<void> | undefined;
}

export async function serveHttp(settings: ScopeSettings, options: HttpOptions): Promise<HttpServer> {
  const sessions = new Map<string, Session>();
  /** Sessions whose initialize is under way: they count against --max-sessions too. */
  const starting = new Set<Session>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      settings.log(`HTTP request failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, "server-fault");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const failed = new Promise<never>((_resolve, reject) => {
    server.on("error", (error) => reject(new TransportFailure("HTTP server", error)));
  });
  failed.catch(() => undefined); // an embedder that never waits for `failed` must not see an unhandled rejection
  const { port } = server.address() as AddressInfo;
  const guard = { host: options.host, port, token: options.token, allowedOrigins: options.allowedOrigins };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", "http://server").pathname !== MCP_PATH) return refuse(res, 404, "unknown-path");
    const refused = refusal(req.headers, guard);
    if (refused) return answer(res, refused);
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session || session.ending) return refuse(res, 404, "session-unknown");
      if (req.method !== "POST") return track(session, res, [], () => session.transport.handleRequest(req, res));
      // Read here, not by the SDK, to know the ids of the requests this response answers.
      const body = await readJsonBody(req, MAX_REQUEST_BYTES);
      if (body === TOO_LARGE) return answer(res, tooLargeRefusal(MAX_REQUEST_BYTES));
      // null: not JSON, which the SDK answers with its parse error
      return track(session, res, requestIds(body), () => session.transport.handleRequest(req, res, body ?? null));
    }
    if (req.method !== "POST") return refuse(res, 400, "session-required");
    const body = await readJsonBody(req, MAX_INITIALIZE_BYTES);
    if (body === TOO_LARGE || !isInitializeRequest(body)) return refuse(res, 400, "session-required");
    if (sessions.size + starting.size >= options.maxSessions) return answer(res, sessionLimitRefusal(options.maxSessions));
    const session = await startSession();
    try {
      await track(session, res, [], () => session.transport.handleRequest(req, res, body));
    } finally {
      starting.delete(session);
    }
    if (!sessions.has(session.transport.sessionId ?? "")) await session.scope.close(); // the initialize failed
  }

  async function startSession(): Promise<Session> {
    const id = randomUUID();
    const scope = openScope(settings, `mcp:${id}`, id);
    const session: Session = { scope, transport: undefined as never, open: 0, idleTimer: undefined, ending: undefined };
    starting.add(session);
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      maxRequestBodySize: MAX_REQUEST_BYTES,
      onsessioninitialized: () => {
        starting.delete(session);
        sessions.set(id, session);
      },
      onsessionclosed: () => endSession(id), // DELETE: answered once the session's processes have ended
    });
    session.transport.onclose = () => void endSession(id);
    await scope.server.connect(session.transport);
    return session;
  }

  function endSession(id: string, why?: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    clearTimeout(session.idleTimer);
    if (why) settings.log(`MCP session ${id} ${why}`);
    session.ending ??= session.scope.close().finally(() => sessions.delete(id));
    return session.ending;
  }

  /**
   * Counts the request as open until its response ends; the idle timer runs only while none is open. A response
   * that closes before it is finished lost its client: the requests it was to answer (`requestIds`) are cancelled.
   */
  async function track(session: Session, res: ServerResponse, requestIds: RequestId[], run: () => Promise<void>): Promise<void> {
    session.open += 1;
    clearTimeout(session.idleTimer);
    res.once("close", () => {
      if (!res.writableFinished) for (const requestId of requestIds) cancelRequest(session, requestId);
      session.open -= 1;
      if (session.open > 0 || session.ending) return;
      const id = session.transport.sessionId ?? "";
      session.idleTimer = setTimeout(() => void endSession(id, "timed out (idle)"), options.sessionTimeoutMs);
      session.idleTimer.unref();
    });
    await run();
  }

  return {
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}${MCP_PATH}`,
    sessionCount: () => sessions.size,
    failed,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.keys()].map((id) => endSession(id)));
      server.closeAllConnections();
      await closed;
    },
  };
}

function refuse(res: ServerResponse, status: number, reason: HttpRefusalReason): void {
  reply(res, status, refusedText(reason));
}

function answer(res: ServerResponse, refused: Refusal): void {
  reply(res, refused.status, refused.message, refused.headers);
}

/**
 * The session's MCP server is told `notifications/cancelled` for the request, as if its client had sent it: the
 * call's abort signal fires and a foreground exec or a waiting poll ends as a cancelled call does.
 */
function cancelRequest(session: Session, requestId: RequestId): void {
  if (session.ending) return; // its processes are ending anyway
  session.transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: CLIENT_LEFT } });
}

/** The ids of the requests in a JSON-RPC body (one message or a batch); notifications and responses have none. */
function requestIds(body: unknown): RequestId[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message: unknown) => {
    const { id, method } = (typeof message === "object" && message !== null ? message : {}) as { id?: unknown; method?: unknown };
    return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}

/** A JSON-RPC error body, as the SDK's transport answers its own refusals. */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

const TOO_LARGE = Symbol("too large");

/**
 * The parsed JSON body; undefined when it is not JSON, TOO_LARGE past `maxBytes`: a declared length over it is not
 * kept at all, and a body that grows past it is kept no further (Node discards the rest once the refusal is sent).
 */
function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (Number(req.headers["content-length"]) > maxBytes) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off("data", collect);
      chunks.length = 0;
      resolve(TOO_LARGE);
    };
    req.on("data", collect);
    req.once("error", reject);
    req.once("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
      } catch {
        resolve(undefined);
      }
    });
  });
}
