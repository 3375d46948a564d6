#!/usr/bin/env node
// The reference implementation over the stdio protocol (conformance/PROTOCOL.md):
//   npx exec-process-conformance --command "node conformance/stdio-server.mjs"
// With --no-progress it never sends `progress` messages, as a server of protocol version 1 does (to test the kit's
// fallback, PROTOCOL.md `call`).
// stdout carries protocol lines only, so console output is moved to stderr before anything else runs.
// The kit starts this for its probe and for each worker (or scenario), so it loads compiled JavaScript: in the kit's
// package the module next to this file; in the repository, while the build in dist/ matches the sources (npm run
// build), the build's bundle of it with its code cache (a third of the CPU of loading its 440 modules, issue 36);
// else the TypeScript sources through tsx, which is several times slower to start.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const log = (line) => void process.stderr.write(`${line}\n`);
const { serveStdio } = await loadServer();
const progress = !process.argv.slice(2).includes("--no-progress");
await serveStdio({ input: process.stdin, output: process.stdout, log, env: process.env, progress });
// Every session of the instance has ended; leftover handles (stdin, a loader thread) must not keep us alive.
process.exit(0);

async function loadServer() {
  const packaged = new URL("./adapters/stdio-server.js", import.meta.url);
  if (existsSync(packaged)) return import(packaged.href);
  const root = new URL("..", import.meta.url).pathname;
  const { isBuildFresh, repositoryModule } = await import(new URL("../scripts/build-manifest.mjs", import.meta.url).href);
  const bundle = new URL("../dist/conformance/stdio-server.bundle.cjs", import.meta.url).pathname;
  if (isBuildFresh(root) && existsSync(bundle)) return createRequire(import.meta.url)("../scripts/cached-bundle.cjs").loadBundle(bundle);
  return import(await repositoryModule(root, "dist/conformance/adapters/stdio-server.js", new URL("./adapters/stdio-server.ts", import.meta.url),
    () => log("stdio-server: dist/ does not match the sources (run npm run build); loading the TypeScript through tsx")));
}
