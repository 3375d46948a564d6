#!/usr/bin/env node
// Runs the conformance kit with every exec call sent to a real host executor (issue 13):
//   node scripts/conformance-through-host.mjs sandbox|node|container [kit options…]
// `node` starts a throwaway sshd (scripts/sshd-fixture.mjs) for the run, `container` a private dockerd and its test
// image (scripts/docker-daemon.mjs). Rules that cannot hold through an
// executor are left out by tag, each with its reason, from conformance/through-host-exclusions.json.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dockerUnavailableReason, startDockerDaemon } from "./docker-daemon.mjs";
import { sshdUnavailableReason, startSshd } from "./sshd-fixture.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const [host, ...kitArgs] = process.argv.slice(2);
if (host !== "sandbox" && host !== "node" && host !== "container") {
  console.error("usage: node scripts/conformance-through-host.mjs sandbox|node|container [kit options…]");
  process.exit(2);
}

/** The rules excluded for `host`, with their reasons. */
export function exclusionsFor(target) {
  const table = JSON.parse(readFileSync(new URL("../conformance/through-host-exclusions.json", import.meta.url), "utf8"));
  return Object.entries(table.rules).filter(([, rule]) => rule.hosts.includes(target)).map(([id, rule]) => ({ id, reason: rule.reason }));
}

function unavailableReason(target) {
  if (target === "node") return sshdUnavailableReason();
  if (target === "container") return dockerUnavailableReason();
  return spawnSync("bwrap", ["--version"]).status === 0 ? undefined : "bwrap is not installed (apt-get install bubblewrap)";
}

const reason = unavailableReason(host);
if (reason) {
  console.log(`conformance through host "${host}" skipped: ${reason}`);
  process.exit(0);
}
const excluded = exclusionsFor(host);
console.log(`conformance through host "${host}": ${excluded.length} rules excluded`);
for (const { id, reason: why } of excluded) console.log(`  ${id}: ${why}`);
const tags = excluded.map(({ id }) => `not @${id}`).join(" and ");

const env = { ...process.env, CONFORMANCE_HOST: host };
const sshd = host === "node" ? await startSshd() : undefined;
if (sshd) {
  const { host: address, port, username, privateKey, hostKey } = sshd;
  env.SSH_FIXTURE = JSON.stringify({ host: address, port, username, privateKey, hostKey });
}
const daemon = host === "container" ? await startDockerDaemon() : undefined;
if (daemon) env.DOCKER_FIXTURE = JSON.stringify({ socketPath: daemon.socketPath, image: daemon.image });
const args = ["conformance/bin.mjs", "--adapter", "conformance/adapters/through-host.ts", ...(tags ? ["--tags", tags] : []), ...kitArgs];
const child = spawn(process.execPath, args, { cwd: root, env, stdio: "inherit" });
const code = await new Promise((resolve) => child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
await sshd?.stop();
await daemon?.stop();
process.exitCode = code;
