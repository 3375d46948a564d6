// Streamable HTTP (--http): every MCP session (Mcp-Session-Id) is a scope of its own, with its own engine. A session
// ends when the client deletes it, when it stays idle past the session timeout, or when the server stops; its
// processes end with it.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { HttpRefusalReason } from "../src/index.js";
import { refusal, refusedText } from "./http-guard.js";
import type { HttpOptions } from "./options.js";
import { openScope, type McpScope, type ScopeSettings } from "./scope.js";

/** The one path the server answers on (the unknown-path refusal names it). */
export const MCP_PATH = "/mcp";
/** The largest request body read before a session exists (an initialize request is small). */
const MAX_BODY_BYTES = 1_000_000;

export interface HttpServer {
  /** e.g. http://127.0.0.1:8808/mcp */
  readonly url: string;
  /** MCP sessions open now. */
  sessionCount(): number;
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
  const { port } = server.address() as AddressInfo;
  const guard = { host: options.host, port, token: options.token, allowedOrigins: options.allowedOrigins };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", "http://server").pathname !== MCP_PATH) return refuse(res, 404, "unknown-path");
    const refused = refusal(req.headers, guard);
    if (refused) return reply(res, refused.status, refused.message, refused.headers);
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session || session.ending) return refuse(res, 404, "session-unknown");
      return track(session, res, () => session.transport.handleRequest(req, res));
    }
    if (req.method !== "POST") return refuse(res, 400, "session-required");
    const body = await readJsonBody(req);
    if (body === undefined || !isInitializeRequest(body)) return refuse(res, 400, "session-required");
    const session = await startSession();
    await track(session, res, () => session.transport.handleRequest(req, res, body));
    if (!sessions.has(session.transport.sessionId ?? "")) await session.scope.close(); // the initialize failed
  }

  async function startSession(): Promise<Session> {
    const id = randomUUID();
    const scope = openScope(settings, `mcp:${id}`, id);
    const session: Session = { scope, transport: undefined as never, open: 0, idleTimer: undefined, ending: undefined };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void sessions.set(id, session),
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

  /** Counts the request as open until its response ends; the idle timer runs only while none is open. */
  async function track(session: Session, res: ServerResponse, run: () => Promise<void>): Promise<void> {
    session.open += 1;
    clearTimeout(session.idleTimer);
    res.once("close", () => {
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

/** A JSON-RPC error body, as the SDK's transport answers its own refusals. */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** The parsed JSON body, or undefined when it is not JSON or too large. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
