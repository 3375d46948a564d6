#!/usr/bin/env node
// exec-process-conformance: loads the TypeScript kit through tsx, then runs it.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./cli.ts");
process.exitCode = await main(process.argv.slice(2));
