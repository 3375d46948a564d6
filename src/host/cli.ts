// exec-process-host: the session host as a program. It listens on a unix socket (mode 0600 in a private folder by
// default) or on TCP, takes its token from EXEC_PROCESS_HOST_TOKEN or a token file (never from argv, which `ps`
// shows), prints where it listens as one JSON line on stdout, and ends every session when it is stopped.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { describeError, type ExecConfig, ExecProcessError } from "../engine/index.js";
import { createSandboxExecutor } from "../executors/index.js";
import { HOST_DEFAULTS, type SessionHostOptions } from "./host-options.js";
import { writeNewPrivateFile } from "./private-file.js";
import { createSessionHost, describeAddress, generateHostToken } from "./session-host.js";

const USAGE = `Usage: exec-process-host [options]

Serves one session engine to the agent workers of a deployment (connectSessionHost in langchain-exec-process).

  --socket <path>              unix socket to listen on (default: host.sock in a new private folder)
  --listen <host:port>         TCP instead: a loopback address, or any other with --tls-cert and --tls-key
  --tls-cert <file>            TLS certificate (PEM) for --listen
  --tls-key <file>             TLS private key (PEM) for --listen
  --token-file <path>          the token: read from this file if it exists (it must be private to its owner),
                               else generated and written there (mode 0600). EXEC_PROCESS_HOST_TOKEN wins over it.
                               Neither: a generated token in a private folder, printed as tokenFile.
  --name <name>                the name errors give the host (default exec-process-host)
  --cwd <dir>                  the commands' default working directory (default: the current one)
  --config <file>              the documented exec config as JSON: { "tools": { "exec": { … } } }
  --sandbox bwrap              run host "sandbox" commands in bubblewrap (within --cwd)
  --dedupe-window-ms <ms>      an identical exec within this time joins the running job (default 0: off)
  --max-clients <n>            clients connected at once (default ${HOST_DEFAULTS.maxClients})
  --max-scopes-per-client <n>  scopes one client may use (default ${HOST_DEFAULTS.maxScopesPerClient})
  --max-request-bytes <n>      the largest request read (default ${HOST_DEFAULTS.maxRequestBytes})
  --help, --version

On start it prints one JSON line: {"listening": "<socket or url>", "socketPath"?, "url"?, "tokenFile"?}.
SIGTERM, SIGINT or SIGHUP stops it: every session ends, and the socket and generated files are removed.`;

const fail = (option: string, value: string, expected: string): ExecProcessError =>
  new ExecProcessError({ code: "invalid-option", owner: "exec-process-host", option, value, expected });

function integer(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw fail(option, value, "a positive integer");
  return parsed;
}

interface Token {
  token: string;
  /** The file a client reads it from, when the host wrote or read one. */
  file: string | undefined;
}

/** From the environment, an existing private file, or a new one (given path, or a private folder's). */
function resolveToken(tokenFile: string | undefined, privateFolder: () => string): Token {
  const fromEnv = process.env[HOST_DEFAULTS.tokenEnv];
  if (fromEnv) return { token: fromEnv, file: tokenFile };
  if (tokenFile !== undefined) {
    let mode: number | undefined;
    try {
      mode = statSync(tokenFile).mode;
    } catch {
      mode = undefined;
    }
    if (mode !== undefined) {
      if ((mode & 0o077) !== 0) throw fail("--token-file", tokenFile, "a file only its owner may read (chmod 600)");
      const token = readFileSync(tokenFile, "utf8").trim();
      if (token.length < 16) throw fail("--token-file", tokenFile, "a file holding a token of at least 16 characters");
      return { token, file: tokenFile };
    }
  }
  const file = tokenFile ?? join(privateFolder(), "token");
  const token = generateHostToken();
  try {
    writeNewPrivateFile(file, `${token}\n`);
  } catch (error) {
    throw fail("--token-file", file, `a path in a folder this user can write (${(error as NodeJS.ErrnoException).code ?? "unwritable"})`);
  }
  return { token, file };
}

function readConfig(file: string): { tools?: { exec?: ExecConfig } } {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { tools?: { exec?: ExecConfig } };
  } catch (error) {
    throw fail("--config", file, `a readable JSON file (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
  }
}

function listenOption(value: string, cert: string | undefined, key: string | undefined): NonNullable<SessionHostOptions["listen"]> {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(value);
  if (!match) throw fail("--listen", value, "host:port, e.g. 127.0.0.1:7070");
  const host = match[1]!.replace(/^\[(.*)\]$/, "$1");
  if ((cert === undefined) !== (key === undefined)) throw fail("--tls-cert", cert ?? "(none)", "both --tls-cert and --tls-key, or neither");
  const tls = cert !== undefined && key !== undefined ? { cert: readFileSync(cert), key: readFileSync(key) } : undefined;
  return { host, port: Number(match[2]), ...(tls ? { tls } : {}) };
}

/** Runs the host until a stop signal; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        socket: { type: "string" }, listen: { type: "string" }, "tls-cert": { type: "string" }, "tls-key": { type: "string" },
        "token-file": { type: "string" }, name: { type: "string" }, cwd: { type: "string" }, config: { type: "string" },
        sandbox: { type: "string" }, "max-clients": { type: "string" }, "max-scopes-per-client": { type: "string" },
        "max-request-bytes": { type: "string" }, "dedupe-window-ms": { type: "string" },
        help: { type: "boolean" }, version: { type: "boolean" },
      },
    });
  } catch (error) {
    process.stderr.write(`exec-process-host: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  let folder: string | undefined;
  const privateFolder = (): string => (folder ??= mkdtempSync(join(tmpdir(), HOST_DEFAULTS.socketDirPrefix)));
  const removeFolder = (): void => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  };
  process.on("exit", removeFolder);
  try {
    if (values.sandbox !== undefined && values.sandbox !== "bwrap") throw fail("--sandbox", values.sandbox, "bwrap");
    if (values.socket !== undefined && values.listen !== undefined) throw fail("--listen", values.listen, "either --socket or --listen");
    const { token, file } = resolveToken(values["token-file"], privateFolder);
    const cwd = resolve(values.cwd ?? process.cwd());
    const listen = values.listen !== undefined ? listenOption(values.listen, values["tls-cert"], values["tls-key"]) : undefined;
    const socketPath = listen ? undefined : resolve(values.socket ?? join(privateFolder(), HOST_DEFAULTS.socketName));
    const sandbox = values.sandbox === "bwrap" ? createSandboxExecutor({ allowedRoots: [cwd] }) : undefined;
    const host = await createSessionHost({
      token,
      ...(socketPath !== undefined ? { socketPath } : {}),
      ...(listen ? { listen } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      engine: {
        cwd,
        ...(values.config !== undefined ? { config: readConfig(values.config) } : {}),
        ...(sandbox ? { executors: { sandbox } } : {}),
        ...optional("dedupeWindowMs", integer("--dedupe-window-ms", values["dedupe-window-ms"])),
      },
      ...optional("maxClients", integer("--max-clients", values["max-clients"])),
      ...optional("maxScopesPerClient", integer("--max-scopes-per-client", values["max-scopes-per-client"])),
      ...optional("maxRequestBytes", integer("--max-request-bytes", values["max-request-bytes"])),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const { address } = host;
    const where = describeAddress(address);
    process.stdout.write(`${JSON.stringify({
      listening: where,
      ...(address.kind === "unix" ? { socketPath: address.socketPath } : { url: where }),
      ...(file !== undefined ? { tokenFile: file } : {}),
    })}\n`);
    const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
      for (const name of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(name, () => resolveSignal(name));
    });
    process.stderr.write(`exec-process-host: ${signal}: ending every session\n`);
    await host.close();
    await sandbox?.dispose?.();
    if (socketPath !== undefined && folder !== undefined && dirname(socketPath) !== folder) rmSync(socketPath, { force: true });
    return 0;
  } catch (error) {
    process.stderr.write(`exec-process-host: ${ExecProcessError.is(error) ? describeError(error.data) : (error as Error).message}\n`);
    return 1;
  } finally {
    removeFolder();
  }
}

/** This package's version, from the package.json above this module (in src/ or in dist/src/). */
function packageVersion(): string {
  for (let dir = new URL(".", import.meta.url); dir.pathname !== "/"; dir = new URL("..", dir)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: string; version?: string };
      if (manifest.name === "langchain-exec-process" && manifest.version) return manifest.version;
    } catch {
      // not here: one folder up
    }
  }
  return "unknown";
}

function optional<Key extends string>(key: Key, value: number | undefined): Partial<Record<Key, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, number>);
}
