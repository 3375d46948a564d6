#!/usr/bin/env node
// exec-process-mcp. In its package the server is compiled JavaScript next to this file; in the repository it runs
// from the build in dist/ (bundled into one file) while that matches the sources (npm run build), else from the
// TypeScript through tsx.
// stdout carries MCP messages only (stdio transport), so console output goes to stderr before anything else runs.
import { existsSync } from "node:fs";

for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const { main } = await import(await cliModule());
const code = await main(process.argv.slice(2));
// Every session has ended; leftover handles (stdin, a loader thread) must not keep the server alive.
process.exit(code);

async function cliModule() {
  const packaged = new URL("./cli.js", import.meta.url);
  if (existsSync(packaged)) return packaged.href;
  const root = new URL("..", import.meta.url);
  const { isBuildFresh } = await import(new URL("scripts/build-manifest.mjs", root).href);
  if (isBuildFresh(root.pathname)) {
    const bundle = new URL("dist/mcp/server.bundle.mjs", root); // the same build as one file: a quicker start
    return (existsSync(bundle) ? bundle : new URL("dist/mcp/cli.js", root)).href;
  }
  process.stderr.write("exec-process-mcp: dist/ does not match the sources (run npm run build); loading the TypeScript through tsx\n");
  (await import("tsx/esm/api")).register();
  return new URL("./cli.ts", import.meta.url).href;
}
