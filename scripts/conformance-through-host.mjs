#!/usr/bin/env node
// Runs the conformance kit with every exec call sent to a real host executor (issue 13):
//   node scripts/conformance-through-host.mjs sandbox|node|container [kit options…]
// `node` starts a throwaway sshd (scripts/sshd-fixture.mjs) for the run. `container` uses the Docker daemon at
// DOCKER_SOCKET (its image DOCKER_IMAGE, default local/exec-sandbox:1) when set, else starts a private dockerd and
// builds its test image (scripts/docker-daemon.mjs), and stops it and removes its folder at the end, on failure and
// on SIGINT/SIGTERM too. A host that cannot run here ends the run with one line `… skipped: <reason>` and exit 0
// (scripts/test-all.mjs counts such a run as skipped). Rules that cannot hold through an executor are left out by
// tag, each with its reason, from conformance/through-host-exclusions.json.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-manifest.mjs";
import { dockerUnavailableReason, engineFromEnvironment, startDockerDaemon } from "./docker-daemon.mjs";
import { sshdUnavailableReason, startSshd } from "./sshd-fixture.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * The features `npm test` runs through the container executor, and why only these. A command there costs a
 * `runc exec` (about 60–90 ms of CPU), so the ten exec/process features (603 scenarios) would cost several times the
 * sandbox's pass; measured on the 2-core machine, these three run 125 scenarios. They
 * are where a container differs most from a local run: kill and timeouts through the wrapper's second exec
 * (termination), terminals over the exec's TTY (pty), input and terminal replies over its hijacked stream (input).
 * Exit codes and signals (exec_results) are left to test/executors/container-executor.test.ts.
 */
export const CONTAINER_SUBSET = Object.freeze({
  features: Object.freeze(["termination", "pty", "input"]),
  reason: "a command in a container costs a runc exec, so npm test runs only the features "
    + "where containers differ most from a local run: termination, terminals and input",
});

/** The rules excluded for `host`, with their reasons. */
export function exclusionsFor(target) {
  const table = JSON.parse(readFileSync(new URL("../conformance/through-host-exclusions.json", import.meta.url), "utf8"));
  return Object.entries(table.rules).filter(([, rule]) => rule.hosts.includes(target)).map(([id, rule]) => ({ id, reason: rule.reason }));
}

function unavailableReason(target) {
  if (target === "node") return sshdUnavailableReason();
  if (target === "container") return process.env.DOCKER_SOCKET ? undefined : dockerUnavailableReason();
  return spawnSync("bwrap", ["--version"]).status === 0 ? undefined : "bwrap is not installed (apt-get install bubblewrap)";
}

function skip(host, reason) {
  console.log(`conformance through host "${host}" skipped: ${reason}`);
  return 0;
}

/** Runs the kit through `host`; resolves with its exit code. Whatever it started is stopped before it resolves. */
async function main(host, kitArgs) {
  const reason = unavailableReason(host);
  if (reason) return skip(host, reason);
  const stops = [];
  let child;
  let interrupted;
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => console.error(`cleanup: ${error.message}`));
  };
  // A signal ends the kit, then the run stops what it started; one that comes while a fixture starts ends the run
  // once that fixture is up (and so can be stopped).
  const onSignal = (signal) => {
    interrupted = signal;
    child?.kill(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const env = { ...process.env, CONFORMANCE_HOST: host };
    if (host === "node") {
      const sshd = await startSshd();
      stops.push(() => sshd.stop());
      if (interrupted) return 1;
      const { host: address, port, username, privateKey, hostKey } = sshd;
      env.SSH_FIXTURE = JSON.stringify({ host: address, port, username, privateKey, hostKey });
    }
    if (host === "container") {
      const given = engineFromEnvironment();
      if (given) {
        env.DOCKER_FIXTURE = JSON.stringify({ socketPath: given.socketPath, image: given.image });
      } else {
        let daemon;
        try {
          daemon = await startDockerDaemon();
        } catch (error) {
          return skip(host, `a private dockerd could not start (${error.message})`);
        }
        stops.push(() => daemon.stop());
        if (interrupted) return 1;
        env.DOCKER_FIXTURE = JSON.stringify({ socketPath: daemon.socketPath, image: daemon.image });
      }
      // The kit makes every scenario's folder in this one, and each worker's container mounts it once for all its
      // scenarios (conformance/adapters/through-host.ts): a container per scenario cost several times its commands.
      const folder = realpathSync(mkdtempSync(join(tmpdir(), "exec-through-container-")));
      stops.push(async () => rmSync(folder, { recursive: true, force: true }));
      env.TMPDIR = folder;
      env.CONFORMANCE_CONTAINER_FOLDER = folder;
    }
    const excluded = exclusionsFor(host);
    console.log(`conformance through host "${host}": ${excluded.length} rules excluded`);
    for (const { id, reason: why } of excluded) console.log(`  ${id}: ${why}`);
    const tags = excluded.map(({ id }) => `not @${id}`).join(" and ");
    // The compiled adapter while the build is fresh, as the kit itself (conformance/bin.mjs) then runs compiled.
    const adapter = isBuildFresh(root) ? "dist/conformance/adapters/through-host.js" : "conformance/adapters/through-host.ts";
    const args = ["conformance/bin.mjs", "--adapter", adapter, ...(tags ? ["--tags", tags] : []), ...kitArgs];
    child = spawn(process.execPath, args, { cwd: root, env, stdio: "inherit" });
    const code = await new Promise((resolve) => {
      child.once("error", () => resolve(1));
      child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    return interrupted ? 1 : code;
  } finally {
    await stopAll();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [host, ...kitArgs] = process.argv.slice(2);
  if (host !== "sandbox" && host !== "node" && host !== "container") {
    console.error("usage: node scripts/conformance-through-host.mjs sandbox|node|container [kit options…]");
    process.exit(2);
  }
  process.exitCode = await main(host, kitArgs);
}
