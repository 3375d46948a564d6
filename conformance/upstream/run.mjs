#!/usr/bin/env node
// `npm run conformance:upstream`: the kit's @upstream profile against the published original (openclaw@2026.9.6).
// Installs the oracle on first use (setup.sh) into $EXEC_PROCESS_ORACLE_DIR (default ~/.cache/exec-process-oracle),
// then runs the kit with the oracle server and the project's divergence file. Extra arguments go to the kit and
// come after the defaults, so `--tags "@upstream and @slow"` or `--paths features/poll.feature` replace them.
// Run by hand only: never in CI or `npm test` (it needs the registry on first use and takes about 20 minutes).
import { spawn, spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "../..");
const DEPS_DIR = process.env.EXEC_PROCESS_ORACLE_DIR || join(homedir(), ".cache/exec-process-oracle");
/** The divergences of docs/UPSTREAM.md, shown as "diverges (explained)" in the oracle's compliance matrix. */
const DIVERGENCES = join(HERE, "divergences.json");
const DEFAULT_ARGS = [
  "--level", "reference", "--tags", "@upstream and not @slow", "--parallel", "2", "--call-timeout", "60000",
  "--tolerance", "1500", "--report", "reports/upstream", "--divergences", DIVERGENCES,
];

/** Installs the oracle if needed; returns the Node 24 path, or null after printing one line that says why not. */
function installOracle() {
  const setup = spawnSync("bash", [join(HERE, "setup.sh"), DEPS_DIR], { encoding: "utf8" });
  const node24 = setup.stdout?.trim().split("\n").at(-1);
  if (setup.status === 0 && node24) return node24;
  console.error(`conformance:upstream: cannot install the oracle into ${DEPS_DIR}: ${installFailureReason(setup)}`);
  return null;
}

/** npm's own error code and summary (e.g. "ENOTFOUND … registry"), never a stack trace. */
function installFailureReason(setup) {
  if (setup.error) return setup.error.message;
  const lines = (setup.stderr ?? "").split("\n").map((line) => line.trim()).filter(Boolean);
  const code = lines.find((line) => /^npm (error|ERR!) code /.test(line))?.replace(/^npm (error|ERR!) code /, "");
  const summary = lines.map((line) => line.replace(/^npm (error|ERR!) ?/, ""))
    .find((line) => line && !/^(code|syscall|errno|path|at |[{}]|[a-z]+: )/.test(line))?.replace(/^\w*Error: /, "");
  const reason = [code, summary].filter(Boolean).join(": ") || lines.at(-1) || `setup.sh exited with ${setup.status}`;
  return `${reason} (is the npm registry reachable?)`;
}

/** Later options of the same name win in the kit's parser, so defaults go first; repeatable --paths too. */
function kitArgs(node24, extra) {
  const command = `${node24} ${join(HERE, "server.mjs")} --deps ${DEPS_DIR}`;
  return [join(ROOT, "conformance/bin.mjs"), "--command", command, ...DEFAULT_ARGS, ...extra];
}

const node24 = installOracle();
if (!node24) process.exit(3);
const kit = spawn(process.execPath, kitArgs(node24, process.argv.slice(2)), { cwd: ROOT, stdio: "inherit" });
kit.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => kit.kill(signal));
