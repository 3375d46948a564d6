#!/usr/bin/env node
// exec-process-conformance. In the kit's package the kit is compiled JavaScript next to this file; in the
// repository it runs from the build in dist/ while that matches the sources (npm run build), else from the
// TypeScript sources through tsx (a development dependency), which takes twice the CPU to start.
import { existsSync } from "node:fs";

const { main } = await import(await cliModule());
// Once the reports are written the run is over: with one worker the scenarios ran in this process, and what an
// implementation left open (a reused stdio process, a timer) must not keep it alive. Exit handlers still run.
process.exit(await main(process.argv.slice(2)));

async function cliModule() {
  const packaged = new URL("./cli.js", import.meta.url);
  if (existsSync(packaged)) return packaged.href;
  const root = new URL("..", import.meta.url).pathname;
  const { repositoryModule } = await import(new URL("../scripts/build-manifest.mjs", import.meta.url).href);
  return repositoryModule(root, "dist/conformance/cli.js", new URL("./cli.ts", import.meta.url));
}
