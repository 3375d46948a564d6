#!/usr/bin/env node
// The reference implementation over the stdio protocol (conformance/PROTOCOL.md):
//   npx exec-process-conformance --command "node conformance/stdio-server.mjs"
// stdout carries protocol lines only, so console output is moved to stderr before anything else runs.
import { importStdioServer } from "./stdio-server-loader.mjs";

for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const log = (line) => void process.stderr.write(`${line}\n`);
const { serveStdio } = await importStdioServer(log);
await serveStdio({ input: process.stdin, output: process.stdout, log, env: process.env });
// Every session of the instance has ended; leftover handles (stdin, a loader thread) must not keep us alive.
process.exit(0);
