#!/usr/bin/env node
// exec-process-host: the session host (src/host/cli.ts). In the package it runs the compiled module; in the
// repository, the build in dist/ while it matches the sources (npm run build), else the TypeScript through tsx.
import { existsSync } from "node:fs";

const packaged = new URL("../dist/src/host/cli.js", import.meta.url);
const repositoryScripts = new URL("../scripts/build-manifest.mjs", import.meta.url);
let entry = packaged.href;
if (existsSync(repositoryScripts)) {
  const { repositoryModule } = await import(repositoryScripts.href);
  entry = await repositoryModule(new URL("..", import.meta.url).pathname, "dist/src/host/cli.js", new URL("../src/host/cli.ts", import.meta.url),
    () => process.stderr.write("exec-process-host: dist/ does not match the sources (run npm run build); loading the TypeScript through tsx\n"));
}
const { main } = await import(entry);
process.exit(await main(process.argv.slice(2)));
