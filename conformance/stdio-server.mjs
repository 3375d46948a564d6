#!/usr/bin/env node
// The reference implementation over the stdio protocol (conformance/PROTOCOL.md):
//   npx exec-process-conformance --command "node conformance/stdio-server.mjs"
// With --no-progress it never sends `progress` messages, as a server of protocol version 1 does (to test the kit's
// fallback, PROTOCOL.md `call`).
// stdout carries protocol lines only, so console output is moved to stderr before anything else runs.
// The kit starts this once per scenario, so it loads compiled JavaScript: in the kit's package the module next to
// this file, in the repository the build in dist/ while it matches the sources (npm run build), else the
// TypeScript sources through tsx, which is several times slower to start.
import { existsSync } from "node:fs";

for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const log = (line) => void process.stderr.write(`${line}\n`);
const { serveStdio } = await import(await serverModule());
const progress = !process.argv.slice(2).includes("--no-progress");
await serveStdio({ input: process.stdin, output: process.stdout, log, env: process.env, progress });
// Every session of the instance has ended; leftover handles (stdin, a loader thread) must not keep us alive.
process.exit(0);

async function serverModule() {
  const packaged = new URL("./adapters/stdio-server.js", import.meta.url);
  if (existsSync(packaged)) return packaged.href;
  const root = new URL("..", import.meta.url).pathname;
  const { repositoryModule } = await import(new URL("../scripts/build-manifest.mjs", import.meta.url).href);
  return repositoryModule(root, "dist/conformance/adapters/stdio-server.js", new URL("./adapters/stdio-server.ts", import.meta.url),
    () => log("stdio-server: dist/ does not match the sources (run npm run build); loading the TypeScript through tsx"));
}
