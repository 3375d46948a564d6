#!/usr/bin/env node
// Start-up cost of the repository's MCP server, which the kit's MCP pass pays once per scope of every scenario: spawn
// to the answer of `initialize`, and the server's CPU time by then (from /proc: Linux only; on a loaded machine it
// varies far less than wall time). Four ways to start the same build, interleaved, median over N runs each:
//   launcher      scripts/mcp-bundle.cjs as the kit's MCP pass starts it: the bundle with its cache, no freshness check
//   bundle+cache  mcp/exec-process-mcp.mjs as a user of the repository runs it: the freshness check, then the bundle
//                 with its V8 code cache
//   bundle        the same bundle, required without the cache
//   modules       the compiled modules of dist/mcp (the baseline: what a start cost before the bundle)
//   node bench/mcp-server-start.mjs [runs]        (needs a fresh npm run build)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "../scripts/build-manifest.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (!isBuildFresh(root)) {
  console.error("dist/ does not match the sources: run npm run build first.");
  process.exit(2);
}
const runs = Number(process.argv[2] ?? 15);
const CLOCK_TICKS_PER_SECOND = 100;
const bundle = join(root, "dist/mcp/server.bundle.cjs");
const VARIANTS = {
  launcher: [join(root, "scripts/mcp-bundle.cjs")],
  "bundle+cache": [join(root, "mcp/exec-process-mcp.mjs")],
  bundle: ["-e", `require(${JSON.stringify(bundle)}).main(process.argv.slice(1)).then((code) => process.exit(code))`, "--"],
  modules: ["--input-type=module", "-e",
    `const { main } = await import(${JSON.stringify(join(root, "dist/mcp/cli.js"))}); process.exit(await main(process.argv.slice(1)));`, "--"],
};
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
  protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } } })}\n`;

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** One spawn: ms until the answer to initialize, and the server's CPU seconds by then. */
function measureOnce(args) {
  const cwd = mkdtempSync(join(tmpdir(), "mcp-start-"));
  const began = performance.now();
  const child = spawn(process.execPath, [...args, "--cwd", cwd], { stdio: ["pipe", "pipe", "ignore"], cwd });
  child.stdin.write(INITIALIZE);
  return new Promise((resolve, reject) => {
    let answered = false;
    child.stdout.once("data", () => {
      answered = true;
      const sample = { ms: performance.now() - began, cpu: cpuSeconds(child.pid) };
      child.stdin.end(); // the client leaves: the server ends
      child.once("exit", () => {
        rmSync(cwd, { recursive: true, force: true });
        resolve(sample);
      });
    });
    child.once("exit", (code) => {
      if (!answered) reject(new Error(`the server exited with code ${code} before it answered initialize`));
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const samples = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
for (let run = 0; run < runs; run += 1) {
  for (const [name, args] of Object.entries(VARIANTS)) samples[name].push(await measureOnce(args));
}
const baseline = median(samples.modules.map((sample) => sample.cpu));
console.log(`MCP server start, median of ${runs} (interleaved); load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
console.log("| load | spawn → initialize answer (ms) | server CPU by then (s) | CPU ratio to modules |\n|---|---|---|---|");
for (const [name, list] of Object.entries(samples)) {
  const cpu = median(list.map((sample) => sample.cpu));
  console.log(`| ${name} | ${median(list.map((sample) => sample.ms)).toFixed(0)} | ${cpu.toFixed(2)} | ${(cpu / baseline).toFixed(2)}× |`);
}
