#!/usr/bin/env node
// exec-process-mcp. In its package the server is compiled JavaScript next to this file; in the repository it runs
// from the build in dist/ (bundled into one file, loaded with its code cache) while that matches the sources (npm run
// build), else from the TypeScript through tsx.
// stdout carries MCP messages only (stdio transport), so console output goes to stderr before anything else runs.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const { main } = await cliModule();
const code = await main(process.argv.slice(2));
// Every session has ended; leftover handles (stdin, a loader thread) must not keep the server alive.
process.exit(code);

async function cliModule() {
  const packaged = new URL("./cli.js", import.meta.url);
  if (existsSync(packaged)) return import(packaged.href);
  const root = new URL("..", import.meta.url).pathname;
  const { repositoryModule } = await import(new URL("../scripts/build-manifest.mjs", import.meta.url).href);
  const module = await repositoryModule(root, "dist/mcp/server.bundle.cjs", new URL("./cli.ts", import.meta.url),
    () => process.stderr.write("exec-process-mcp: dist/ does not match the sources (run npm run build); loading the TypeScript through tsx\n"));
  if (!module.endsWith(".cjs")) return import(module);
  const { loadBundle } = await import(new URL("../scripts/cached-bundle.cjs", import.meta.url).href);
  return loadBundle(fileURLToPath(module));
}
