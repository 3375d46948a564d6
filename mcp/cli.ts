// exec-process-mcp: serves exec and process over stdio (default) or Streamable HTTP. SIGTERM and SIGINT end every
// MCP session, and so every process the server started, before the server exits. A fatal error ends them too, says
// why on stderr in one line and exits with code 1 (issue 32).
import { config as zodConfig } from "zod";
import { ExecProcessError } from "../src/engine/index.js";
import type { Readable, Writable } from "node:stream";
import { createServerExecutors, type ServerExecutors } from "./executors.js";
import { exitOnFatal, fatalLine } from "./fatal.js";
import { invalid, parseCommand, USAGE, type HttpOptions, type ServerOptions } from "./options.js";
import type { ScopeSettings } from "./scope.js";
import { serverVersion } from "./server-info.js";
import { IN_TURN_FLAG, serveInTurn } from "./in-turn.js";
import { serveStdio } from "./stdio.js";
import { writeTokenFile } from "./token-file.js";

/** How long a stop may take before the server exits anyway (the engine's own exit hook still kills what is left). */
const STOP_LIMIT_MS = 10_000;

const log = (line: string): void => void process.stderr.write(`exec-process-mcp: ${line}\n`);

/** Where a generated token is (the path, never the token). */
const tokenFileNotice = (path: string): string =>
  `HTTP bearer token generated into ${path} (mode 0600, deleted when the server stops): send it as Authorization: Bearer <token>`;
/** What --no-auth costs, said at every start. */
const noAuthNotice = (url: string): string =>
  `--no-auth: no token; every user and program on this machine that reaches ${url} can run commands as this user`;

/**
 * Runs the server until its client goes (stdio), a signal stops it or a fatal error; resolves to the exit code.
 * `--in-turn` alone: stdio sessions one after another in this process (mcp/in-turn.ts), each as a server started with
 * its own flags and environment would be, for a test harness (the conformance kit's --reuse with --mcp).
 */
export async function main(argv: string[]): Promise<number> {
  // zod compiles a parser for each object schema at its first parse: a cost a server that answers a few calls per
  // second never earns back, about a tenth of a short stdio session's CPU (the kit's MCP pass starts 700; issue 36).
  zodConfig({ jitless: true });
  const stopCatching = exitOnFatal(log);
  try {
    if (argv.length === 1 && argv[0] === IN_TURN_FLAG) return await serveInTurn(runStdioSession, process.stdin, process.stdout);
    return await serve(argv);
  } catch (error) {
    log(fatalLine(error));
    return 1;
  } finally {
    stopCatching();
  }
}

/** One stdio session served in turn on the given streams, as the command line runs it; resolves to its exit code. */
async function runStdioSession(argv: string[], env: Record<string, string>, input: Readable, output: Writable): Promise<number> {
  const prepared = prepare(argv, env);
  if (typeof prepared === "number") return prepared;
  const { options, executors, settings } = prepared;
  if (options.http) {
    log("--http: a session served in turn speaks over stdio only");
    await executors.dispose();
    return 2;
  }
  const stdio = await serveStdio(settings, input, output);
  const failure = await stdio.ended.then(() => undefined, (error: unknown) => fatalLine(error));
  if (failure) log(failure);
  await stdio.close();
  await executors.dispose();
  return failure ? 1 : 0;
}

/** What a run of the server needs, or the exit code of a command line that starts none (help, version, refusal). */
function prepare(argv: string[], env: NodeJS.ProcessEnv): { options: ServerOptions; executors: ServerExecutors; settings: ScopeSettings } | number {
  let options: ServerOptions;
  try {
    const command = parseCommand(argv, env);
    if (command.kind === "help") return print(USAGE);
    if (command.kind === "version") return print(serverVersion());
    options = command.options;
  } catch (error) {
    log(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let executors: ServerExecutors;
  try {
    executors = createServerExecutors(options);
  } catch (error) {
    if (!ExecProcessError.is(error)) throw error;
    log(error.message);
    return 2;
  }
  const settings: ScopeSettings = {
    cwd: options.cwd, env, config: options.config, executors: executors.executors,
    processTool: options.processTool, allowElevated: options.allowElevated, eventsInResults: options.eventsInResults,
    watchTool: options.watchTool, dedupeWindowMs: options.dedupeWindowMs,
    sandboxed: options.sandbox !== undefined, log,
  };
  if (!options.sandbox) log(`no sandbox: commands run as this user, in ${options.cwd} (see --sandbox)`);
  return { options, executors, settings };
}

async function serve(argv: string[]): Promise<number> {
  const prepared = prepare(argv, process.env);
  if (typeof prepared === "number") return prepared;
  const { options, executors, settings } = prepared;
  let stop: Awaited<ReturnType<typeof start>>;
  try {
    stop = await start(settings, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const refused = ExecProcessError.is(error, "invalid-option") ? error // --token-file
      : options.http && (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL")
        ? invalid("--http", `a port that ${options.http.host} can listen on`, `${options.http.port}: ${code}`) : undefined;
    if (!refused) throw error;
    log(refused.message);
    await executors.dispose();
    return 2;
  }
  // Listeners stay for the whole stop: while one is there, the engine's own signal handler leaves the exit to us.
  const signalled = new Promise<string>((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => resolve(signal));
  });
  const end = await Promise.race([stop.ended, signalled]).then((why) => ({ why, failed: false as const }),
    (error: unknown) => ({ why: fatalLine(error), failed: true as const }));
  if (end.failed) log(end.why);
  else if (end.why) log(`${end.why}: ending every session`);
  const limit = setTimeout(() => process.exit(1), STOP_LIMIT_MS);
  await stop.close();
  await executors.dispose();
  clearTimeout(limit);
  return end.failed ? 1 : 0;
}

/**
 * `ended` resolves when the transport is done by itself (stdio: the client closed stdin), and rejects when it
 * fails (stdout closed under it, the HTTP server's socket).
 */
async function start(settings: ScopeSettings, options: ServerOptions): Promise<{ ended: Promise<string | undefined>; close(): Promise<void> }> {
  if (!options.http) {
    const stdio = await serveStdio(settings);
    return { ended: stdio.ended.then(() => undefined), close: () => stdio.close() };
  }
  return startHttp(settings, options.http);
}

/** Without --token, the token variable or --no-auth, the server makes its own token and says where it is. */
async function startHttp(settings: ScopeSettings, options: HttpOptions): ReturnType<typeof start> {
  // Loaded only here: a stdio server (one per MCP client session, the common case) need not load the HTTP stack.
  const { serveHttp } = await import("./http.js");
  const tokenFile = options.token === undefined && !options.noAuth ? writeTokenFile(options.tokenFile) : undefined;
  let http: Awaited<ReturnType<typeof serveHttp>>;
  try {
    http = await serveHttp(settings, { ...options, token: tokenFile?.token ?? options.token });
  } catch (error) {
    tokenFile?.remove();
    throw error;
  }
  if (tokenFile) log(tokenFileNotice(tokenFile.path));
  if (options.noAuth) log(noAuthNotice(http.url));
  log(`listening on ${http.url}${options.noAuth ? "" : " (bearer token required)"}`);
  return {
    ended: http.failed.then(() => undefined),
    async close() {
      await http.close();
      tokenFile?.remove();
    },
  };
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}
