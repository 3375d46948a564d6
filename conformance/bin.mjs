#!/usr/bin/env node
// exec-process-conformance. In the kit's package the kit is compiled JavaScript next to this file; in the
// repository it runs from the TypeScript sources, loaded through tsx (a development dependency).
import { existsSync } from "node:fs";

const compiled = new URL("./cli.js", import.meta.url);
if (!existsSync(compiled)) (await import("tsx/esm/api")).register();
const { main } = await import(existsSync(compiled) ? compiled.href : "./cli.ts");
process.exitCode = await main(process.argv.slice(2));
