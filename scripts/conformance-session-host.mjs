#!/usr/bin/env node
// Runs the conformance kit through a session host (issue 33):
//   node scripts/conformance-session-host.mjs [kit options…]
// Every scenario's engine lives in a session host in another process (conformance/adapters/session-host-factory.ts)
// and the LangChain tools reach it through connectSessionHost. What the pass leaves out, and why, is in
// conformance/session-host-exclusions.json.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-manifest.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const table = JSON.parse(readFileSync(new URL("../conformance/session-host-exclusions.json", import.meta.url), "utf8"));
const excluded = Object.entries(table.rules).map(([id, rule]) => ({ id, reason: rule.reason }));
console.log(`conformance through a session host: ${excluded.length} rules excluded`);
for (const { id, reason } of excluded) console.log(`  ${id}: ${reason}`);
for (const [capability, reason] of Object.entries(table.capabilities)) console.log(`  @${capability} not applicable: ${reason}`);
const tags = excluded.map(({ id }) => `not @${id}`).join(" and ");
const adapter = isBuildFresh(root) ? "dist/conformance/adapters/session-host.js" : "conformance/adapters/session-host.ts";
const args = ["conformance/bin.mjs", "--adapter", adapter, ...(tags ? ["--tags", tags] : []), ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
process.exitCode = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
