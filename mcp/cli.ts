// exec-process-mcp: serves exec and process over stdio (default) or Streamable HTTP. SIGTERM and SIGINT end every
// MCP session, and so every process the server started, before the server exits.
import { ExecProcessError } from "../src/index.js";
import { createServerExecutors } from "./executors.js";
import { invalid, parseCommand, USAGE, type ServerOptions } from "./options.js";
import type { ScopeSettings } from "./scope.js";
import { serverVersion } from "./server-info.js";
import { serveStdio } from "./stdio.js";

/** How long a stop may take before the server exits anyway (the engine's own exit hook still kills what is left). */
const STOP_LIMIT_MS = 10_000;

const log = (line: string): void => void process.stderr.write(`exec-process-mcp: ${line}\n`);

/** Runs the server until its client goes (stdio) or a signal stops it; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let options: ServerOptions;
  try {
    const command = parseCommand(argv, process.env);
    if (command.kind === "help") return print(USAGE);
    if (command.kind === "version") return print(serverVersion());
    options = command.options;
  } catch (error) {
    log(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let executors: ReturnType<typeof createServerExecutors>;
  try {
    executors = createServerExecutors(options);
  } catch (error) {
    if (!ExecProcessError.is(error)) throw error;
    log(error.message);
    return 2;
  }
  const settings: ScopeSettings = {
    cwd: options.cwd, env: process.env, config: options.config, executors: executors.executors,
    processTool: options.processTool, allowElevated: options.allowElevated, eventsInResults: options.eventsInResults,
    sandboxed: options.sandbox !== undefined, log,
  };
  if (!options.sandbox) log(`no sandbox: commands run as this user, in ${options.cwd} (see --sandbox)`);
  let stop: Awaited<ReturnType<typeof start>>;
  try {
    stop = await start(settings, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!options.http || (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL")) throw error;
    log(invalid("--http", `a port that ${options.http.host} can listen on`, `${options.http.port}: ${code}`).message);
    await executors.dispose();
    return 2;
  }
  // Listeners stay for the whole stop: while one is there, the engine's own signal handler leaves the exit to us.
  const signalled = new Promise<string>((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => resolve(signal));
  });
  const why = await Promise.race([stop.ended, signalled]);
  if (why) log(`${why}: ending every session`);
  const limit = setTimeout(() => process.exit(1), STOP_LIMIT_MS);
  await stop.close();
  await executors.dispose();
  clearTimeout(limit);
  return 0;
}

/** `ended` resolves when the transport is done by itself (stdio: the client closed stdin). */
async function start(settings: ScopeSettings, options: ServerOptions): Promise<{ ended: Promise<string | undefined>; close(): Promise<void> }> {
  if (!options.http) {
    const stdio = await serveStdio(settings);
    return { ended: stdio.ended.then(() => undefined), close: () => stdio.close() };
  }
  // Loaded only here: a stdio server (one per MCP client session, the common case) need not load the HTTP stack.
  const { serveHttp } = await import("./http.js");
  const http = await serveHttp(settings, options.http);
  log(`listening on ${http.url}${options.http.token ? " (bearer token required)" : ""}`);
  return { ended: new Promise(() => undefined), close: () => http.close() };
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}
