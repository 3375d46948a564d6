// The server's command line and environment, normalized once into ServerOptions (fields never undefined but the
// optional ones). The engine's own settings (OPENCLAW_BASH_* and the rest) are read by the engine from the
// environment; --config adds the documented nested config (tools.exec.*).
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ExecProcessError, SETTINGS_TABLE, type ExecConfig } from "../src/engine/index.js";

/** The port of `--http` given without one. */
export const DEFAULT_HTTP_PORT = 8808;
/** The address HTTP binds by default: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
/**
 * How long an HTTP session may stay idle (no request, no open stream) before it ends with its processes. A client
 * that is still there keeps its event stream (GET) open and is never idle; an idle session is one whose client left
 * without deleting it, and it held its processes and memory for half an hour before issue 32 (attack 7).
 */
export const DEFAULT_SESSION_TIMEOUT_SECONDS = 300;
/** The longest --session-timeout: a year. */
const MAX_SESSION_TIMEOUT_SECONDS = 31_536_000;
/** The most HTTP sessions open at once; an initialize beyond it is refused (issue 32, attack 7: 1000 sessions opened). */
export const DEFAULT_MAX_SESSIONS = 32;
/** The highest --max-sessions. */
const MAX_SESSIONS_CEILING = 10_000;
/** The environment variable that holds the bearer token (safer than --token, which `ps` shows). */
export const TOKEN_ENV = "EXEC_PROCESS_MCP_TOKEN";
/** The random bytes of a token the server generates (written as 64 hex digits). */
export const GENERATED_TOKEN_BYTES = 32;
/** The folder (under the temp dir, made by mkdtemp: mode 0700) and file (mode 0600) of a generated token. */
export const TOKEN_DIR_PREFIX = "exec-process-mcp-";
export const TOKEN_FILE_NAME = "token";
/**
 * The largest JSON-RPC message the server reads: one stdio line (without its newline) or one HTTP request body, the
 * MCP SDK's own HTTP limit (4 MiB). A larger one is refused unread, and the server goes on (issue 32, attack 9).
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** The largest initialize request read before an HTTP session exists (an initialize request is small). */
export const MAX_INITIALIZE_BYTES = 1_000_000;

export interface HttpOptions {
  port: number;
  host: string;
  /**
   * Required as `Authorization: Bearer <token>` when set: --token or EXEC_PROCESS_MCP_TOKEN. The command line server
   * generates one when none is given (see tokenFile), unless noAuth.
   */
  token: string | undefined;
  /** --token-file: where a generated token is written; undefined: a new private folder under the temp dir. */
  tokenFile: string | undefined;
  /** --no-auth: no token at all (loopback addresses only). */
  noAuth: boolean;
  /** Origins admitted besides the server's own (http://127.0.0.1:<port>, http://localhost:<port>). */
  allowedOrigins: string[];
  sessionTimeoutMs: number;
  /** --max-sessions: the most MCP sessions open at once. */
  maxSessions: number;
}

export interface ServerOptions {
  /** undefined: stdio. */
  http: HttpOptions | undefined;
  /** The engine's working directory (the default workdir). */
  cwd: string;
  config: { tools?: { exec?: ExecConfig } };
  /** Every command not sent to a node runs in this sandbox. */
  sandbox: "bwrap" | undefined;
  /** Folders a sandboxed command's working directory must lie in (the sandbox's allowedRoots); [] = its default, --cwd. */
  allowedRoots: string[];
  /** A JSON file of SSH nodes for host "node". */
  sshConfig: string | undefined;
  allowElevated: boolean;
  /** false: exec only, synchronous (EXEC-42). */
  processTool: boolean;
  /** Exit events go in front of the next tool result as `System:` lines. */
  eventsInResults: boolean;
  /** Offer the `watch` tool too (issue 34; needs the process tool). */
  watchTool: boolean;
  /** --dedupe-window-ms: the engines' retry dedupe window (issue 34); 0 = off. */
  dedupeWindowMs: number;
}

export type Command = { kind: "serve"; options: ServerOptions } | { kind: "help" } | { kind: "version" };

export const USAGE = `Usage: exec-process-mcp [options]

An MCP server with the tools exec and process. Without a sandbox, commands run as the user who starts it.

  --http [port]             serve Streamable HTTP on 127.0.0.1 (default port ${DEFAULT_HTTP_PORT}) instead of stdio
  --host <address>          HTTP address to bind (default ${DEFAULT_HTTP_HOST})
  --token <token>           HTTP bearer token (prefer the environment variable ${TOKEN_ENV}); without one,
                            the server generates a token into a new file of mode 0600 and prints its path
  --token-file <path>       write the generated token to this new file (default: a private folder in the temp dir)
  --no-auth                 serve HTTP without a token (loopback only): every local user can then run commands
  --allow-origin <origin>   admit a browser Origin (repeatable); other Origins are refused
  --session-timeout <s>     end an HTTP session and its processes after s seconds without a request or an open
                            stream (default ${DEFAULT_SESSION_TIMEOUT_SECONDS}: a client that left frees its processes soon)
  --max-sessions <n>        refuse a new HTTP session while n are open (default ${DEFAULT_MAX_SESSIONS})
  --cwd <dir>               default working directory of commands (default: the current directory)
  --config <file.json>      settings as { "tools": { "exec": { … } } }; OPENCLAW_* variables apply too
  --sandbox bwrap           run every command in a bubblewrap sandbox (host "node" excepted)
  --allowed-root <dir>      with --sandbox: a folder workdir may lie in (repeatable; default: the --cwd folder)
  --ssh-config <nodes.json> SSH nodes for host "node": { "nodes": { "<name>": { host, username, … } } }
  --allow-elevated          let exec accept elevated: true (runs outside any sandbox; refused with --sandbox)
  --no-process-tool         offer exec only; it runs every command to its end
  --no-events-in-results    do not put exit events in front of tool results (logging notifications still go out)
  --watch-tool              offer the tool watch too: an "Output matched" event when a session prints a line
  --dedupe-window-ms <ms>   an exec identical to a running one started less than ms ago joins it (default 0: off)
  --in-turn                 alone: serve stdio sessions one after another, each framed with its own options and
                            environment, for a test harness (the conformance kit's --reuse with --mcp)
  --version, --help`;

/** Parses argv (without node and the script) and the environment; throws invalid-option errors. */
export function parseCommand(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Command {
  const { values } = parseArgs({
    args: withHttpPort(argv),
    strict: true,
    options: {
      http: { type: "string" }, host: { type: "string" }, token: { type: "string" }, "token-file": { type: "string" },
      "no-auth": { type: "boolean" }, "allow-origin": { type: "string", multiple: true }, "session-timeout": { type: "string" },
      "max-sessions": { type: "string" },
      cwd: { type: "string" }, config: { type: "string" }, sandbox: { type: "string" }, "ssh-config": { type: "string" },
      "allowed-root": { type: "string", multiple: true },
      "allow-elevated": { type: "boolean" }, "no-process-tool": { type: "boolean" }, "no-events-in-results": { type: "boolean" },
      "watch-tool": { type: "boolean" }, "dedupe-window-ms": { type: "string" },
      help: { type: "boolean" }, version: { type: "boolean" },
    },
  });
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const sandbox = values.sandbox === undefined ? undefined : readSandbox(values.sandbox);
  const allowElevated = values["allow-elevated"] === true;
  if (sandbox && allowElevated) {
    throw invalid("--allow-elevated", "no --sandbox (elevated commands would run outside the sandbox)", "--sandbox bwrap");
  }
  const allowedRoots = (values["allowed-root"] ?? []).map((root) => resolve(cwd, root));
  if (allowedRoots.length > 0 && !sandbox) throw invalid("--allowed-root", "--sandbox bwrap (it limits sandboxed commands)", allowedRoots[0]!);
  return {
    kind: "serve",
    options: {
      http: values.http === undefined ? undefined : readHttp(values, env, cwd),
      cwd: values.cwd === undefined ? cwd : resolve(cwd, values.cwd),
      config: values.config === undefined ? {} : readConfigFile(resolve(cwd, values.config)),
      sandbox,
      allowedRoots,
      sshConfig: values["ssh-config"] === undefined ? undefined : resolve(cwd, values["ssh-config"]),
      allowElevated,
      processTool: values["no-process-tool"] !== true,
      eventsInResults: values["no-events-in-results"] !== true,
      watchTool: values["watch-tool"] === true,
      dedupeWindowMs: wholeNumber("--dedupe-window-ms", values["dedupe-window-ms"] ?? "0", 0, SETTINGS_TABLE.dedupeWindowMs.max),
    },
  };
}

/** `--http` takes an optional port: a bare `--http` gets the default one (parseArgs has no optional values). */
function withHttpPort(argv: string[]): string[] {
  return argv.flatMap((arg, index) => {
    if (arg !== "--http") return [arg];
    const next = argv[index + 1];
    return next !== undefined && /^\d+$/.test(next) ? [arg] : [arg, String(DEFAULT_HTTP_PORT)];
  });
}

type HttpValues = {
  http?: string; host?: string; token?: string; "token-file"?: string; "no-auth"?: boolean; "allow-origin"?: string[];
  "session-timeout"?: string; "max-sessions"?: string;
};

function readHttp(values: HttpValues, env: NodeJS.ProcessEnv, cwd: string): HttpOptions {
  const port = wholeNumber("--http", values.http ?? String(DEFAULT_HTTP_PORT), 0, 65_535);
  const host = values.host ?? DEFAULT_HTTP_HOST;
  const token = values.token ?? (env[TOKEN_ENV] || undefined);
  const tokenSource = values.token === undefined ? TOKEN_ENV : "--token"; // named in errors, never the token itself
  const noAuth = values["no-auth"] === true;
  if (noAuth && token !== undefined) throw invalid("--no-auth", `no --token and no ${TOKEN_ENV} (it turns the token off)`, tokenSource);
  if (noAuth && !isLoopback(host)) {
    throw invalid("--no-auth", "a loopback --host (without a token, anyone who reaches the address could run commands as this user)", host);
  }
  const tokenFile = values["token-file"] === undefined ? undefined : resolve(cwd, values["token-file"]);
  if (tokenFile !== undefined && (token !== undefined || noAuth)) {
    throw invalid("--token-file", `no --token, no ${TOKEN_ENV} and no --no-auth (the file receives a generated token)`, noAuth ? "--no-auth" : tokenSource);
  }
  return {
    port, host, token, tokenFile, noAuth,
    allowedOrigins: (values["allow-origin"] ?? []).map(readOrigin),
    sessionTimeoutMs: wholeNumber("--session-timeout", values["session-timeout"] ?? String(DEFAULT_SESSION_TIMEOUT_SECONDS), 1, MAX_SESSION_TIMEOUT_SECONDS) * 1000,
    maxSessions: wholeNumber("--max-sessions", values["max-sessions"] ?? String(DEFAULT_MAX_SESSIONS), 1, MAX_SESSIONS_CEILING),
  };
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function readOrigin(value: string): string {
  try {
    const { origin } = new URL(value);
    if (origin !== "null") return origin;
  } catch {
    // reported below
  }
  throw invalid("--allow-origin", "an origin such as http://localhost:5173", value);
}

function readSandbox(value: string): "bwrap" {
  if (value === "bwrap") return value;
  throw invalid("--sandbox", "bwrap", value);
}

function wholeNumber(option: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (/^\d+$/.test(value) && n >= min && n <= max) return n;
  throw invalid(option, `a whole number from ${min} to ${max}`, value);
}

/** A JSON file of the documented nested form; its tools.exec settings apply like OPENCLAW_* variables (SPEC §1.1). */
export function readConfigFile(file: string): { tools?: { exec?: ExecConfig } } {
  const parsed = readJsonFile("--config", file);
  const tools = (parsed as { tools?: unknown }).tools;
  if (tools !== undefined && (typeof tools !== "object" || tools === null || Array.isArray(tools))) {
    throw invalid("--config", 'a JSON object such as { "tools": { "exec": { "backgroundMs": 5000 } } }', file);
  }
  return parsed as { tools?: { exec?: ExecConfig } };
}

/** A JSON object read from a file; the error names the option, the file and what went wrong, never a stack. */
export function readJsonFile(option: string, file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw invalid(option, "a readable JSON file", `${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(option, "a file holding one JSON object", `${file}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalid(option, "a file holding one JSON object", file);
  }
  return parsed as Record<string, unknown>;
}

export function invalid(option: string, expected: string, value: string): ExecProcessError {
  return new ExecProcessError({ code: "invalid-option", owner: "exec-process-mcp", option, value, expected });
}

/** A path in a config file, relative to that file's folder. */
export function pathBeside(file: string, path: string): string {
  return isAbsolute(path) ? path : resolve(file, "..", path);
}
