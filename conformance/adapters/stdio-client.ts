// The adapter for implementations in any language: a program that speaks the stdio protocol
// (conformance/PROTOCOL.md), started once per scenario with the scenario's environment.
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { AdapterInstance, Capability, ConformanceAdapter, StartOptions } from "../adapter.js";
import { makeTempFolder, removeTempFolder } from "../temp-folders.js";
import { StdioConnection } from "./stdio-connection.js";
import { createStdioInstance, startImplementation, type Started } from "./stdio-instance.js";

export interface StdioAdapterOptions {
  /** The shell command that starts the implementation, run as `/bin/sh -c <command>`. */
  command: string;
  /** How long the kit waits for any answer, in ms (`--call-timeout`). */
  callTimeoutMs: number;
  /** The capabilities to assume; omitted = ask the implementation with a probe `start`. */
  capabilities?: Capability[];
  /** The directory the command runs in, so that relative paths in it work. @default process.cwd() */
  commandCwd?: string;
  /**
   * Reuse one implementation process for the scenarios of this worker, one after another, when the implementation
   * answers `reusable: true` (PROTOCOL.md, reuse). Off by default: every scenario gets a fresh process.
   */
  reuse?: boolean;
}

/** The adapter name of a stdio implementation, as the compliance matrix records it. */
export const stdioAdapterName = (command: string): string => `stdio: ${command}`;

export async function createStdioAdapter(options: StdioAdapterOptions): Promise<ConformanceAdapter> {
  const command = resolveProgram(options.command, process.env["PATH"] ?? "");
  const launch = (env: Record<string, string>): StdioConnection =>
    new StdioConnection({ command, cwd: options.commandCwd ?? process.cwd(), env, timeoutMs: options.callTimeoutMs });
  const probed = options.capabilities ? undefined : await probeImplementation(launch, options.reuse === true);
  const capabilities = options.capabilities ?? probed?.capabilities ?? [];
  const pool = options.reuse && (probed?.reusable ?? true) ? new ReusePool(launch, probed?.kept) : undefined;
  /** Starts in progress, by scenario cwd (see `start`). */
  const starting = new Map<string, Promise<AdapterInstance>>();
  return {
    name: stdioAdapterName(options.command),
    capabilities,
    // A start takes a process start-up here, not a microtask as in-process, so a step may ask for the instance
    // while another step's start is still running; both get the one instance of their scenario.
    start(start: StartOptions): Promise<AdapterInstance> {
      let instance = starting.get(start.cwd);
      if (!instance) {
        instance = (pool ? pool.start(start) : startInstance(launch, start)).finally(() => starting.delete(start.cwd));
        starting.set(start.cwd, instance);
      }
      return instance;
    },
  };
}

async function startInstance(launch: (env: Record<string, string>) => StdioConnection, start: StartOptions): Promise<AdapterInstance> {
  const { env, ...params } = start;
  const connection = launch(env);
  return createStdioInstance(connection, (await startImplementation(connection, params)).capabilities);
}

/**
 * One implementation process kept for the scenarios of this worker (PROTOCOL.md, reuse). It runs with a neutral
 * environment that carries no scenario's marker, so the survivor check sees only what the scenarios started; each
 * scenario's environment travels in its `start`. A process that crashed or broke the protocol is replaced.
 */
class ReusePool {
  readonly #launch: (env: Record<string, string>) => StdioConnection;
  #idle: StdioConnection | undefined;
  #home: string | undefined;

  /** `kept`: the probe's process, which serves the first scenario. */
  constructor(launch: (env: Record<string, string>) => StdioConnection, kept?: KeptProcess) {
    this.#launch = launch;
    this.#idle = kept?.connection;
    this.#home = kept?.home;
    // The folder goes at process end by itself, also when a signal ends it (temp-folders.ts).
    process.once("exit", () => this.#idle?.killGroup());
  }

  async start(start: StartOptions): Promise<AdapterInstance> {
    const reused = this.#idle?.usable ? this.#idle : undefined;
    this.#idle = undefined;
    const connection = reused ?? this.#launch(neutralEnv((this.#home ??= makeTempFolder("exec-conformance-reuse-"))));
    const { capabilities } = await startImplementation(connection, start);
    return createStdioInstance(connection, capabilities, async () => {
      if (connection.usable) this.#idle = connection;
      else await connection.end("after its scenario");
    });
  }
}

/** The environment of an implementation process that is not a scenario's: what a user's shell would give it. */
export function neutralEnv(home: string): Record<string, string> {
  return { PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", HOME: home, SHELL: "/bin/sh", TERM: "dumb", LANG: "C.UTF-8" };
}

/** An implementation process started with a neutral environment whose `HOME` is `home`, idle after a `dispose`. */
interface KeptProcess { connection: StdioConnection; home: string }

/**
 * Runs the implementation once with a neutral environment and reads what its `start` answers. With `keep` (a run
 * with reuse) and an implementation that answers `reusable`, the probe's engine is disposed and its process kept for
 * the worker's first scenario instead of ended (PROTOCOL.md, reuse): a process start less per worker.
 */
async function probeImplementation(
  launch: (env: Record<string, string>) => StdioConnection, keep: boolean,
): Promise<Started & { kept?: KeptProcess }> {
  const root = makeTempFolder("exec-conformance-probe-");
  const cwd = join(root, "work");
  mkdirSync(cwd);
  // A kept process keeps its HOME: it goes at process end, as the reuse pool's does (temp-folders.ts).
  const home = keep ? makeTempFolder("exec-conformance-reuse-") : join(root, "home");
  if (!keep) mkdirSync(home);
  try {
    const connection = launch(neutralEnv(home));
    const started = await startImplementation(connection, { config: {}, cwd });
    if (keep && started.reusable) {
      await connection.request("dispose", {}).catch((error: unknown) => {
        connection.killGroup(); // a probe that fails its dispose is not kept, nor left running
        throw error;
      });
      return { ...started, kept: { connection, home } };
    }
    await connection.end("after reading its capabilities"); // end of input: it disposes and exits
    if (keep) removeTempFolder(home);
    return started;
  } catch (error) {
    (error as Error).message = `Reading the capabilities of the stdio implementation failed (set CONFORMANCE_CAPABILITIES to skip this probe).\n${(error as Error).message}`;
    throw error;
  } finally {
    removeTempFolder(root);
  }
}

/**
 * Scenarios may set their own PATH (shell selection, EXEC-20 …), under which `node` or `python3` may not exist.
 * So a command that starts with a bare program name gets that program's absolute path from the kit's own PATH,
 * the way the user's shell would have found it; everything else in the command is left alone.
 */
export function resolveProgram(command: string, searchPath: string): string {
  const match = /^(\s*)([\w.+-]+)(?=\s|$)/.exec(command);
  if (!match) return command;
  const [whole, indent, program] = match as unknown as [string, string, string];
  for (const dir of searchPath.split(delimiter)) {
    if (!dir.startsWith("/")) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    return `${indent}${shellQuote(candidate)}${command.slice(whole.length)}`;
  }
  return command;
}

const shellQuote = (text: string): string => (/^[\w./+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
