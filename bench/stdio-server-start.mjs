#!/usr/bin/env node
// Start-up cost of a stdio implementation, which the kit pays once per scenario (issue 12): spawn to the answer of
// `start`, and spawn to the answer of the first `call` (`exec echo ready`), plus the server's CPU time by then (read
// from /proc, so it is Linux only; on a loaded machine it varies far less than wall time). Median over N runs.
//   node bench/stdio-server-start.mjs [runs] [-- command…]   (default: node conformance/stdio-server.mjs)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const separator = process.argv.indexOf("--");
const runs = Number(process.argv[2] && process.argv[2] !== "--" ? process.argv[2] : 10);
const command = separator > 0
  ? process.argv.slice(separator + 1)
  : [process.execPath, fileURLToPath(new URL("../conformance/stdio-server.mjs", import.meta.url))];

/** One spawn: ms until the answer to `start`, and until the answer to the first `call`. */
async function measureOnce() {
  const cwd = mkdtempSync(join(tmpdir(), "stdio-start-"));
  const began = performance.now();
  const child = spawn(command[0], command.slice(1), {
    stdio: ["pipe", "pipe", "inherit"],
    env: { PATH: process.env.PATH, HOME: cwd, SHELL: "/bin/sh", TERM: "dumb", LANG: "C.UTF-8" },
  });
  const answers = new Map();
  let buffered = "";
  const waiters = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const answer = JSON.parse(line);
      answers.set(answer.id, performance.now() - began);
      waiters.get(answer.id)?.(answer);
    }
  });
  const ask = (id, method, params) => new Promise((resolve, reject) => {
    waiters.set(id, (answer) => (answer.error ? reject(new Error(answer.error.message)) : resolve(answer.result)));
    child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
  });
  await ask(1, "start", { config: { tools: { exec: {} } }, cwd });
  const call = await ask(2, "call", { tool: "exec", args: { command: "echo ready" }, scope: "main" });
  const cpu = cpuMs(child.pid);
  if (call.text !== "ready") throw new Error(`unexpected answer: ${JSON.stringify(call)}`);
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(cwd, { recursive: true, force: true });
  return { start: answers.get(1), firstCall: answers.get(2), cpu };
}

/** User + system CPU time of a process so far, in ms (fields 14 and 15 of /proc/<pid>/stat, in clock ticks). */
function cpuMs(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return NaN;
  const fields = readFileSync(stat, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ: 100 on every Linux platform Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
await measureOnce(); // warm-up: file cache, and any build the command does on its first run
const samples = [];
for (let i = 0; i < runs; i += 1) samples.push(await measureOnce());
console.log(`${command.join(" ")}: ${runs} runs, load ${(await import("node:os")).loadavg()[0].toFixed(2)}`);
console.log(`  spawn → start answered: median ${median(samples.map((s) => s.start)).toFixed(0)} ms`);
console.log(`  spawn → first call answered: median ${median(samples.map((s) => s.firstCall)).toFixed(0)} ms`);
console.log(`  server CPU time until then: median ${median(samples.map((s) => s.cpu)).toFixed(0)} ms`);
