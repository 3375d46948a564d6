#!/usr/bin/env node
// Runs a command from the repository root as an unprivileged user, so that the security tests (test/security) attack
// the executors under root (the ordinary run) and under a plain user (this run), issue 20:
//   node scripts/as-unprivileged.mjs [--out DIR] -- <command> [args…]
// Every `{out}` in the arguments becomes a directory the user can write; what the command writes there is copied to
// DIR afterwards. Run by root, it creates the user `exec-sectest` when missing and runs the command in a private mount
// namespace where the repository is bind-mounted under a world-traversable directory (the clone may sit under a
// directory the user cannot enter), with tmpfs over the few folders vite and vitest write to. Run by anyone else, the
// command simply runs as that user.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const UNPRIVILEGED_USER = "exec-sectest";
/** Folders under the repository that vite and vitest write to while they run. */
const WRITABLE = ["node_modules/.vite-temp", "node_modules/.vite", "reports"];
const WRITABLE_SIZE = "256m";

const root = fileURLToPath(new URL("..", import.meta.url));

function parseArgs(argv) {
  const split = argv.indexOf("--");
  if (split === -1 || split === argv.length - 1) {
    console.error("usage: node scripts/as-unprivileged.mjs [--out DIR] -- <command> [args…]");
    process.exit(2);
  }
  const options = argv.slice(0, split);
  const outIndex = options.indexOf("--out");
  return { out: outIndex === -1 ? undefined : resolve(options[outIndex + 1]), command: argv.slice(split + 1) };
}

/** uid and gid of the test user, created (with a home and bash as login shell, for sshd) when missing. */
function ensureUser() {
  let id = spawnSync("id", ["-u", UNPRIVILEGED_USER], { encoding: "utf8" });
  if (id.status !== 0) {
    const added = spawnSync("useradd", ["--create-home", "--shell", "/bin/bash", UNPRIVILEGED_USER], { encoding: "utf8" });
    if (added.status !== 0) throw new Error(`useradd ${UNPRIVILEGED_USER} failed: ${added.stderr.trim()}`);
    id = spawnSync("id", ["-u", UNPRIVILEGED_USER], { encoding: "utf8" });
  }
  const gid = spawnSync("id", ["-g", UNPRIVILEGED_USER], { encoding: "utf8" });
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), home: `/home/${UNPRIVILEGED_USER}` };
}

function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function run(command, args, env) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.once("exit", (code, signal) => resolveRun(code ?? (signal ? 1 : 0)));
  });
}

const { out, command } = parseArgs(process.argv.slice(2));
const base = mkdtempSync(join(tmpdir(), "exec-unprivileged-"));
chmodSync(base, 0o755);
const outDir = join(base, "out");
mkdirSync(outDir);
const args = command.map((arg) => arg.replaceAll("{out}", outDir));
let code;
try {
  if (process.getuid?.() !== 0) {
    code = await run(args[0], args.slice(1), process.env);
  } else {
    const user = ensureUser();
    chownSync(outDir, user.uid, user.gid);
    // sshd run by a plain user still needs its privilege separation directory, which only root can create.
    mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
    const repo = join(base, "repo");
    mkdirSync(repo);
    const mounts = [
      `mount --bind ${shellQuote(root)} ${shellQuote(repo)}`,
      ...WRITABLE.map((dir) => {
        const target = shellQuote(join(repo, dir));
        return `mkdir -p ${target} && mount -t tmpfs -o uid=${user.uid},gid=${user.gid},mode=755,size=${WRITABLE_SIZE} tmpfs ${target}`;
      }),
    ];
    const inner = `${mounts.join(" && ")} && cd ${shellQuote(repo)} && exec setpriv --reuid=${user.uid} --regid=${user.gid} ` +
      `--init-groups --reset-env -- env HOME=${shellQuote(user.home)} PATH=${shellQuote(process.env.PATH ?? "/usr/bin:/bin")} ` +
      `${process.env.CI ? `CI=${shellQuote(process.env.CI)} ` : ""}${args.map(shellQuote).join(" ")}`;
    // The mount points under node_modules must exist in the real tree for the bind mount to show them.
    for (const dir of WRITABLE) mkdirSync(join(root, dir), { recursive: true });
    code = await run("unshare", ["--mount", "--propagation", "private", "sh", "-c", inner], process.env);
  }
  if (out) {
    mkdirSync(out, { recursive: true });
    cpSync(outDir, out, { recursive: true });
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.exitCode = code;
