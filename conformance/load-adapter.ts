// Resolves the implementation under test from the environment the kit's CLI sets for every worker.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { AdapterFactory, Capability, ConformanceAdapter } from "./adapter.js";
import { createStdioAdapter, stdioAdapterName } from "./adapters/stdio-client.js";
import { CAPABILITIES } from "./adapters/stdio-protocol.js";
import { mcpAdapterName } from "./adapters/mcp-adapter-name.js";
import { REFERENCE_ADAPTER_NAME } from "./adapters/reference-adapter-name.js";

/** Per-request timeout of stdio implementations when CONFORMANCE_CALL_TIMEOUT_MS is not set. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** The longest delay a Node.js timer waits: a longer one fires after 1 ms, so a timeout above it is refused. */
export const TIMER_MAX_MS = 2_147_483_647;

/**
 * CONFORMANCE_ADAPTER: a module whose default export is an AdapterFactory. CONFORMANCE_COMMAND: a stdio program
 * (PROTOCOL.md), with CONFORMANCE_CALL_TIMEOUT_MS, CONFORMANCE_CAPABILITIES and CONFORMANCE_COMMAND_CWD.
 * CONFORMANCE_MCP_COMMAND: an MCP server over stdio (adapters/mcp-client.ts), with the same three.
 */
export async function loadAdapterFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceAdapter> {
  const mcpCommand = env["CONFORMANCE_MCP_COMMAND"];
  if (mcpCommand) {
    // Loaded only here: the MCP SDK is an optional peer of the kit, needed for MCP servers alone.
    const { createMcpAdapter } = (await import(`./adapters/mcp-client${OWN_EXTENSION}`)) as typeof import("./adapters/mcp-client.js");
    const capabilities = parseCapabilities(env["CONFORMANCE_CAPABILITIES"]);
    return createMcpAdapter({
      command: mcpCommand,
      callTimeoutMs: parseTimeout(env["CONFORMANCE_CALL_TIMEOUT_MS"]),
      commandCwd: env["CONFORMANCE_COMMAND_CWD"] || process.cwd(),
      reuse: env["CONFORMANCE_REUSE"] === "1",
      ...(capabilities ? { capabilities } : {}),
    });
  }
  const command = env["CONFORMANCE_COMMAND"];
  if (command) {
    const capabilities = parseCapabilities(env["CONFORMANCE_CAPABILITIES"]);
    return createStdioAdapter({
      command,
      callTimeoutMs: parseTimeout(env["CONFORMANCE_CALL_TIMEOUT_MS"]),
      commandCwd: env["CONFORMANCE_COMMAND_CWD"] || process.cwd(),
      reuse: env["CONFORMANCE_REUSE"] === "1",
      ...(capabilities ? { capabilities } : {}),
    });
  }
  const modulePath = env["CONFORMANCE_ADAPTER"] ?? new URL(`./adapters/reference${OWN_EXTENSION}`, import.meta.url).pathname;
  if (OWN_EXTENSION === ".js" && TYPESCRIPT_MODULE.test(modulePath)) await registerTypeScript(modulePath);
  const loaded = (await import(pathToFileURL(resolve(modulePath)).href)) as { default?: AdapterFactory };
  if (typeof loaded.default !== "function") {
    throw new Error(`The adapter module ${modulePath} must default-export a factory that returns a ConformanceAdapter.`);
  }
  return loaded.default();
}

/**
 * The name of the adapter the environment selects, without starting a stdio implementation. An adapter module is
 * loaded for it only when no worker has said its name (recordAdapterName).
 */
export async function adapterNameFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const mcpCommand = env["CONFORMANCE_MCP_COMMAND"];
  if (mcpCommand) return mcpAdapterName(mcpCommand);
  const command = env["CONFORMANCE_COMMAND"];
  if (command) return stdioAdapterName(command);
  if (env["CONFORMANCE_ADAPTER"] === undefined) return REFERENCE_ADAPTER_NAME;
  return recordedAdapterName(env) ?? (await loadAdapterFromEnvironment(env)).name;
}

/**
 * CONFORMANCE_ADAPTER_NAME_FILE: where a process that loaded the adapter writes its name, for the kit's own process
 * to read once the scenarios have run. Loading an adapter module only for its name cost the kit's process 0.4 s of
 * CPU for the adapter of the executors (issue 36); its workers have loaded it already.
 */
const NAME_FILE = "CONFORMANCE_ADAPTER_NAME_FILE";

/** Has the processes that load the adapter from now on write its name to `file` (inherited by the workers). */
export function expectAdapterName(file: string, env: NodeJS.ProcessEnv = process.env): void {
  env[NAME_FILE] = file;
}

/** Writes the loaded adapter's name where the kit's process expects it, if it does; a failure only costs a load. */
export function recordAdapterName(name: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[NAME_FILE];
  if (!file) return;
  try {
    writeFileSync(file, name);
  } catch {
    // the kit's process loads the adapter for its name instead
  }
}

function recordedAdapterName(env: NodeJS.ProcessEnv): string | undefined {
  const file = env[NAME_FILE];
  if (!file) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // no worker loaded the adapter (none ran a scenario)
  }
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_CALL_TIMEOUT_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > TIMER_MAX_MS) {
    throw new Error(`CONFORMANCE_CALL_TIMEOUT_MS must be a whole number of ms from 1 to ${TIMER_MAX_MS} (got "${value}").`);
  }
  return ms;
}

/** "pty,executor" or "pty executor"; "none" or "" = no capability; unset = ask the implementation. */
function parseCapabilities(value: string | undefined): Capability[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(/[\s,]+/).filter((name) => name !== "" && name !== "none");
  for (const name of names) {
    if (!(CAPABILITIES as readonly string[]).includes(name)) {
      throw new Error(`CONFORMANCE_CAPABILITIES names "${name}", which is not a capability; use ${CAPABILITIES.join(", ")} or none (e.g. "pty,executor").`);
    }
  }
  return names as Capability[];
}

/** ".ts" when the kit runs from its sources (tsx is registered already), ".js" when it runs compiled. */
const OWN_EXTENSION = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
const TYPESCRIPT_MODULE = /\.[cm]?ts$/;

/** The compiled kit loads tsx only for a TypeScript adapter; tsx is the user's (an optional peer dependency). */
async function registerTypeScript(modulePath: string): Promise<void> {
  let api: { register(): unknown };
  try {
    api = (await import("tsx/esm/api")) as { register(): unknown };
  } catch {
    throw new Error(`The adapter module ${modulePath} is TypeScript: install tsx (npm install --save-dev tsx) to load it, or pass its compiled JavaScript.`);
  }
  api.register();
}
