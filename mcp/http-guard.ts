// Who may talk to the HTTP server: DNS-rebinding protection (the Host a browser was sent to and the Origin of the
// page that sends), the bearer token, and how much (sessions, request size). A refusal is an HTTP status with one line
// saying why.
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { ExecProcessError, type HttpRefusalReason } from "../src/engine/index.js";
import { isLoopback } from "./options.js";

export interface GuardOptions {
  /** The bound address and port. */
  host: string;
  port: number;
  token: string | undefined;
  /** Origins admitted besides the server's own loopback ones. */
  allowedOrigins: string[];
}

export interface Refusal { status: 401 | 403 | 413 | 503; message: string; headers?: Record<string, string> }

/** Names by which a browser reaches a loopback server legitimately. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export function refusal(headers: IncomingHttpHeaders, options: GuardOptions): Refusal | undefined {
  const ownHosts = ownHostHeaders(options);
  // A rebinding page reaches 127.0.0.1 under the attacker's host name; a non-loopback server relies on its token.
  if (ownHosts && !ownHosts.includes((headers.host ?? "").toLowerCase())) return { status: 403, message: refusedText("foreign-host") };
  const origin = headers.origin;
  if (origin !== undefined && !admittedOrigins(options).includes(origin.toLowerCase())) {
    return { status: 403, message: refusedText("foreign-origin") };
  }
  if (options.token !== undefined && !bearerMatches(headers.authorization, options.token)) {
    return { status: 401, message: refusedText("token-required"), headers: { "WWW-Authenticate": "Bearer" } };
  }
  return undefined;
}

function ownHostHeaders({ host, port }: GuardOptions): string[] | undefined {
  if (!isLoopback(host)) return undefined;
  const named = host.includes(":") ? `[${host}]` : host;
  return [...new Set([named, ...LOOPBACK_NAMES])].map((name) => `${name}:${port}`.toLowerCase());
}

/** The server's own origins (a page it served itself) and the --allow-origin ones. */
function admittedOrigins(options: GuardOptions): string[] {
  const own = (ownHostHeaders(options) ?? []).map((host) => `http://${host}`);
  return [...own, ...options.allowedOrigins.map((origin) => origin.toLowerCase())];
}

function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const refusedText = (reason: HttpRefusalReason): string => new ExecProcessError({ code: "http-request-refused", reason }).message;

/** An initialize while --max-sessions sessions are open (issue 32, attack 7). */
export const sessionLimitRefusal = (maxSessions: number): Refusal => ({
  status: 503, message: new ExecProcessError({ code: "http-request-refused", reason: "session-limit", maxSessions }).message,
});

/** A request body over the limit, refused unread (Node discards the rest of it, so that the client reads the answer). */
export const tooLargeRefusal = (limitBytes: number): Refusal => ({
  status: 413, message: new ExecProcessError({ code: "request-too-large", limitBytes }).message,
});
