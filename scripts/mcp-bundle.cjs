#!/usr/bin/env node
// The repository's MCP server, started straight from its bundle (dist/mcp/server.bundle.cjs) without the check that
// dist/ matches the sources: for a caller that checked once for many starts, as the kit's MCP pass does
// (scripts/conformance-mcp.mjs). That check and the ES module loader of mcp/exec-process-mcp.mjs cost about 40 ms of
// CPU per start, a quarter of it.
// stdout carries MCP messages only (stdio transport), so console output goes to stderr before anything else runs.
"use strict";
for (const method of ["log", "info", "debug", "dir", "table"]) console[method] = console.error;
const { join } = require("node:path");
const { loadBundle } = require("./cached-bundle.cjs");

const { main } = loadBundle(join(__dirname, "../dist/mcp/server.bundle.cjs"));
// Every session has ended; leftover handles (stdin, a loader thread) must not keep the server alive.
main(process.argv.slice(2)).then((code) => process.exit(code));
