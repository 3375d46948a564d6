#!/usr/bin/env node
// A throwaway OpenSSH server on 127.0.0.1 for the SSH executor's tests: generated host and user keys in a temp dir,
// a free port, key-only login as the current user. `startSshd()` for tests; as a program,
// `node scripts/sshd-fixture.mjs <command> [args…]` runs the command with SSH_FIXTURE (JSON) set, then stops sshd.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"].find((path) => existsSync(path));
const START_TIMEOUT_MS = 15_000;

/** Why sshd cannot run here, or undefined when it can. */
export function sshdUnavailableReason() {
  if (!SSHD) return "sshd is not installed (apt-get install openssh-server)";
  if (spawnSync("ssh-keygen", ["-?"]).error) return "ssh-keygen is not installed (apt-get install openssh-client)";
  if (process.getuid?.() !== 0 && !existsSync("/run/sshd")) return "sshd needs its privilege separation directory /run/sshd, which only root can create";
  return undefined;
}

function keygen(path) {
  const result = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path]);
  if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("data", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A login whose startup prints, as a .bashrc banner or a conda/nvm line does: every session runs through a forced
 * command that execs bash with BASH_ENV set, so bash prints `stdout` and `stderr` and then waits `delayMs` (with the
 * session's command line in its argv, as a slow .bashrc would) before it runs the command. It works the same for
 * any user and login shell.
 */
function writeLoginStartup(dir, { stdout = "", stderr = "", delayMs = 0 }) {
  writeFileSync(join(dir, "banner.out"), stdout);
  writeFileSync(join(dir, "banner.err"), stderr);
  writeFileSync(join(dir, "startup.bash"), [
    "unset BASH_ENV",
    `cat ${join(dir, "banner.out")}`,
    `cat ${join(dir, "banner.err")} >&2`,
    ...(delayMs > 0 ? [`sleep ${(delayMs / 1000).toFixed(3)}`] : []),
  ].join("\n") + "\n");
  const login = join(dir, "login.sh");
  writeFileSync(login, `#!/bin/sh\nBASH_ENV=${join(dir, "startup.bash")} exec /bin/bash -c "$SSH_ORIGINAL_COMMAND"\n`, { mode: 0o755 });
  return login;
}

/**
 * Starts sshd; resolves to { host, port, username, privateKey, hostKey, dir, stop() }. Options: `maxSessions`
 * (channels per connection; default 100, sshd's own default is 10) and `loginStartup` ({ stdout, stderr, delayMs }:
 * what the login prints before every command, see writeLoginStartup), `setEnv` (variables every session gets).
 */
export async function startSshd({ maxSessions = 100, loginStartup, setEnv = {} } = {}) {
  const reason = sshdUnavailableReason();
  if (reason) throw new Error(reason);
  const sessionEnv = Object.entries(setEnv).map(([name, value]) => {
    if (!/^\w+$/.test(name) || /[\s"\\]/.test(value)) throw new Error(`setEnv: ${name}=${value} cannot be written to sshd_config`);
    return `${name}=${value}`;
  });
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), "sshd-fixture-"));
  keygen(join(dir, "host_key"));
  keygen(join(dir, "user_key"));
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "user_key.pub")));
  const port = await freePort();
  const config = [
    `Port ${port}`, "ListenAddress 127.0.0.1", `HostKey ${join(dir, "host_key")}`, `PidFile ${join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${join(dir, "authorized_keys")}`, "PermitRootLogin prohibit-password", "PasswordAuthentication no",
    "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no", `MaxSessions ${maxSessions}`, "MaxStartups 100:30:200",
    "LogLevel ERROR", "PrintMotd no", "ClientAliveInterval 0",
    // bash sources ~/.bashrc for a command run by sshd unless SHLVL says it is nested: keep the tests free of that noise.
    ["SetEnv SHLVL=1", ...sessionEnv].join(" "),
    ...(loginStartup ? [`ForceCommand exec ${writeLoginStartup(dir, loginStartup)}`] : []),
  ].join("\n");
  writeFileSync(join(dir, "sshd_config"), `${config}\n`);
  const child = spawn(SSHD, ["-D", "-e", "-f", join(dir, "sshd_config")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sshd did not start: ${stderr.trim() || "no answer on the port"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    host: "127.0.0.1", port, username: userInfo().username, dir,
    privateKey: readFileSync(join(dir, "user_key"), "utf8"),
    hostKey: readFileSync(join(dir, "host_key.pub"), "utf8").trim(),
    /**
     * Why this sshd cannot give a session a terminal, or undefined when it can (asked with the OpenSSH client). sshd
     * run by a plain user hands the pty to group tty itself, which fails unless /dev/pts is mounted with gid=5 or the
     * user is in group tty.
     */
    terminalUnavailableReason() {
      const result = spawnSync("ssh", [
        "-F", "/dev/null", "-tt", "-i", join(dir, "user_key"), "-p", String(port), "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
        `${userInfo().username}@127.0.0.1`, "true",
      ], { encoding: "utf8", timeout: START_TIMEOUT_MS });
      if (result.status === 0) return undefined;
      const why = (result.stderr ?? "").trim().split("\n").at(-1) || `ssh exited with ${result.status}`;
      return `sshd run by ${userInfo().username} cannot allocate a terminal here (${why})`;
    },
    /** Ends the listener; sessions that are still open end with it (sshd -D runs them as its children). */
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  const sshd = await startSshd();
  const fixture = { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKey };
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, SSH_FIXTURE: JSON.stringify(fixture) } });
  const code = await new Promise((resolve) => child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  await sshd.stop();
  process.exitCode = code;
}
