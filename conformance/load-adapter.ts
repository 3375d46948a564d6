// Resolves the implementation under test from the environment the kit's CLI sets for every worker.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { AdapterFactory, ConformanceAdapter } from "./adapter.js";

/** CONFORMANCE_ADAPTER: a module whose default export is an AdapterFactory. CONFORMANCE_COMMAND: a stdio program. */
export async function loadAdapterFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceAdapter> {
  const command = env["CONFORMANCE_COMMAND"];
  if (command) {
    throw new Error("CONFORMANCE_COMMAND (stdio implementations) is not supported by this version of the kit yet.");
  }
  const modulePath = env["CONFORMANCE_ADAPTER"] ?? new URL("./adapters/reference.ts", import.meta.url).pathname;
  const loaded = (await import(pathToFileURL(resolve(modulePath)).href)) as { default?: AdapterFactory };
  if (typeof loaded.default !== "function") {
    throw new Error(`The adapter module ${modulePath} must default-export a factory that returns a ConformanceAdapter.`);
  }
  return loaded.default();
}
