#!/usr/bin/env node
// Runs the conformance kit as an MCP client of exec-process-mcp (issue 22):
//   node scripts/conformance-mcp.mjs [kit options…]
// The kit speaks to the repository's server over stdio: from its bundle in dist/ (scripts/mcp-bundle.cjs) when the
// build matches the sources, checked here once; else as mcp/exec-process-mcp.mjs, which says that dist/ is stale and
// loads the TypeScript. With the bundle, --reuse: each kit worker keeps server processes that serve its scenarios' MCP
// sessions one after another (mcp/in-turn.ts), each session with the flags and environment a server of its own would
// get; a server start per session cost about two thirds of the pass's CPU (issue 36). The start of one server per
// session is what test/mcp and test/scripts/mcp-bundle.test.ts check. Rules an MCP client cannot observe are left out
// by tag, each with its reason, from conformance/mcp-exclusions.json.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-manifest.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const table = JSON.parse(readFileSync(new URL("../conformance/mcp-exclusions.json", import.meta.url), "utf8"));
const excluded = Object.entries(table.rules).map(([id, rule]) => ({ id, reason: rule.reason }));
console.log(`conformance as an MCP client of exec-process-mcp: ${excluded.length} rules excluded`);
for (const { id, reason } of excluded) console.log(`  ${id}: ${reason}`);
const tags = excluded.map(({ id }) => `not @${id}`).join(" and ");
const fresh = isBuildFresh(root);
const entry = fresh ? "./mcp-bundle.cjs" : "../mcp/exec-process-mcp.mjs";
const server = `"${process.execPath}" "${fileURLToPath(new URL(entry, import.meta.url))}"`;
const args = ["conformance/bin.mjs", "--mcp", server, ...(fresh ? ["--reuse"] : []), ...(tags ? ["--tags", tags] : []), ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
process.exitCode = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
