// Resolves the implementation under test from the environment the kit's CLI sets for every worker.
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

/** The name of the adapter the environment selects, without starting a stdio implementation. */
export async function adapterNameFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const mcpCommand = env["CONFORMANCE_MCP_COMMAND"];
  if (mcpCommand) return mcpAdapterName(mcpCommand);
  const command = env["CONFORMANCE_COMMAND"];
  if (command) return stdioAdapterName(command);
  if (env["CONFORMANCE_ADAPTER"] === undefined) return REFERENCE_ADAPTER_NAME;
  return (await loadAdapterFromEnvironment(env)).name;
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
