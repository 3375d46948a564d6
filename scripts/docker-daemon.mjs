#!/usr/bin/env node
// A throwaway Docker daemon for the container executor's tests and conformance pass (issue 21): dockerd on a
// private socket in a temp dir, with no bridge network and no iptables rules (no container can ever get a network),
// and the test image local/exec-sandbox:1 built with no registry pull: busybox-static's /bin/busybox and its applet
// links, imported as a root filesystem. `startDockerDaemon()` for tests; as a program,
// `node scripts/docker-daemon.mjs <command> [args…]` runs the command with DOCKER_FIXTURE (JSON) set, then stops it.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, copyFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const TEST_IMAGE = "local/exec-sandbox:1";
const DOCKERD = ["/usr/sbin/dockerd", "/usr/bin/dockerd"].find((path) => existsSync(path));
const BUSYBOX = ["/bin/busybox", "/usr/bin/busybox"].find((path) => existsSync(path));
const START_TIMEOUT_MS = 30_000;

/** Why a private dockerd cannot run here, or undefined when it can. */
export function dockerUnavailableReason() {
  if (!DOCKERD) return "dockerd is not installed (apt-get install docker.io)";
  if (spawnSync("docker", ["--version"]).error) return "the docker CLI is not installed (apt-get install docker.io)";
  if (process.getuid?.() !== 0) return "dockerd needs root (a rootless daemon is not set up here)";
  if (!BUSYBOX) return "busybox is not installed (apt-get install busybox-static), so the test image cannot be built";
  if (!/statically linked|static-pie/.test(spawnSync("file", ["-L", BUSYBOX], { encoding: "utf8" }).stdout ?? "static")) {
    return "busybox is not statically linked (apt-get install busybox-static)";
  }
  return undefined;
}

/**
 * The longest one docker CLI call of a fixture may take. An engine that accepts connections and never answers (a
 * paused one) would otherwise hold the fixture, its test file and npm test for ever: CI once waited out its 90
 * minutes so (issue 36).
 */
const DOCKER_CLI_TIMEOUT_MS = 60_000;
/** How long an engine has after SIGTERM before SIGKILL. */
const ENGINE_STOP_GRACE_MS = 15_000;

/** Runs the docker CLI against the engine at `socketPath`, for at most DOCKER_CLI_TIMEOUT_MS. */
const docker = (socketPath, args, input) => spawnSync("docker", ["-H", `unix://${socketPath}`, ...args], {
  input, encoding: "buffer", timeout: DOCKER_CLI_TIMEOUT_MS,
});

/**
 * Stops a fixture's engine process, unless it has ended: continued first (a test may have paused it, and a paused
 * engine answers no one), its containers removed with their processes (an engine killed before its containers leaves
 * them running: seen once, two trapped loops outlived a daemon that missed its shutdown timeout), then SIGTERM, and
 * SIGKILL after ENGINE_STOP_GRACE_MS. `group`: the signals go to the engine's process group.
 */
export async function stopEngineProcess({ socketPath, engine, exited, group = false }) {
  if (engine.exitCode !== null || engine.signalCode !== null) return;
  const signal = (name) => { try { process.kill(group ? -engine.pid : engine.pid, name); } catch { /* gone */ } };
  signal("SIGCONT");
  const ids = docker(socketPath, ["ps", "-aq"]).stdout?.toString().split("\n").filter(Boolean) ?? [];
  if (ids.length > 0) docker(socketPath, ["rm", "-f", ...ids]);
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), ENGINE_STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** The busybox root filesystem of the test image: /bin/sh and the other applets, /tmp 1777, a nobody user. */
function buildRootfs(dir) {
  const root = join(dir, "rootfs");
  for (const sub of ["bin", "etc", "tmp", "proc", "sys", "dev", "workspace"]) mkdirSync(join(root, sub), { recursive: true });
  chmodSync(join(root, "tmp"), 0o1777);
  copyFileSync(BUSYBOX, join(root, "bin/busybox"));
  chmodSync(join(root, "bin/busybox"), 0o755);
  const applets = spawnSync(BUSYBOX, ["--list"], { encoding: "utf8" }).stdout.split("\n").filter((name) => /^[\w.[-]+$/.test(name) && name !== "busybox");
  for (const name of applets) symlinkSync("busybox", join(root, "bin", name));
  writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n");
  writeFileSync(join(root, "etc/group"), "root:x:0:\nnogroup:x:65534:\n");
  return root;
}

/**
 * The engine at DOCKER_SOCKET with its image DOCKER_IMAGE (default TEST_IMAGE), when DOCKER_SOCKET is set: one the
 * caller runs, such as Podman's service (scripts/podman-service.mjs), used instead of a private dockerd. Stopping it
 * is the caller's business; DOCKER_ENGINE_PID, when set, is its process (the attack tests pause it).
 */
export function engineFromEnvironment(env = process.env) {
  const socketPath = env.DOCKER_SOCKET;
  if (!socketPath) return undefined;
  return {
    socketPath, dir: dirname(socketPath), image: env.DOCKER_IMAGE || TEST_IMAGE,
    pid: /^\d+$/.test(env.DOCKER_ENGINE_PID ?? "") ? Number(env.DOCKER_ENGINE_PID) : undefined,
    stop: async () => {}, docker: (args) => docker(socketPath, args),
  };
}

/** Lazily unmounts every mount point below `dir`, deepest first (as root; a plain user's dockerd cannot run anyway). */
function unmountUnder(dir) {
  let mounts;
  try { mounts = readFileSync("/proc/self/mountinfo", "utf8"); } catch { return; }
  const points = mounts.split("\n").map((line) => line.split(" ")[4]).filter((point) => point?.startsWith(`${dir}/`));
  for (const point of points.sort((a, b) => b.length - a.length)) spawnSync("umount", ["-l", point]);
}

/** SIGKILL to every process whose command line holds `text` (a fixture's folder): what a fixture started and left. */
export function killProcessesNaming(text) {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let cmdline;
    try { cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1"); } catch { continue; } // gone
    if (cmdline.includes(text)) try { process.kill(Number(pid), "SIGKILL"); } catch { /* gone */ }
  }
}

/** Starts dockerd, waits until it answers, builds the test image. */
export async function startDockerDaemon() {
  const reason = dockerUnavailableReason();
  if (reason) throw new Error(`dockerd cannot run here: ${reason}`);
  const dir = mkdtempSync(join(tmpdir(), "exec-docker-"));
  const socketPath = join(dir, "docker.sock");
  const log = join(dir, "dockerd.log");
  const launch = () => {
    const started = spawn(DOCKERD, [
      "--host", `unix://${socketPath}`, "--data-root", join(dir, "data"), "--exec-root", join(dir, "exec"),
      "--pidfile", join(dir, "pid"), "--bridge=none", "--iptables=false", "--ip6tables=false",
    ], { stdio: ["ignore", "ignore", openSync(log, "a")], detached: true });
    // Its log goes to a file: a daemon writing into a closed pipe must not die of SIGPIPE.
    started.unref();
    return { started, ended: new Promise((resolve) => started.once("exit", resolve)) };
  };
  writeFileSync(log, "");
  let { started: daemon, ended: exited } = launch();
  const stop = async () => {
    await stopEngineProcess({ socketPath, engine: daemon, exited });
    // A dockerd that was killed (the engine-death test) leaves its data root's own mount behind: unmounted here.
    unmountUnder(dir);
    // dockerd's own containerd can outlive it for a moment; its state dirs are under `dir`.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      try { rmSync(dir, { recursive: true, force: true }); return; } catch { await new Promise((r) => setTimeout(r, 250)); }
    }
  };
  const prepared = await prepareEngine({ name: "dockerd", socketPath, dir, engine: daemon, stop });
  // Starts dockerd again on the same socket and state after it died (the engine-death attack test): resolves once it
  // answers, with its new pid in `pid`.
  prepared.restart = async () => {
    await exited;
    // Its containerd outlives a killed dockerd and would hold the state; the containers' shims stay, as after a crash.
    // A killed process whose parent is gone may stay a zombie here (pid 1 need not reap): the pid files go too.
    killProcessesNaming(join(dir, "exec", "containerd", "containerd.toml"));
    for (const file of [join(dir, "pid"), join(dir, "exec", "containerd", "containerd.pid")]) rmSync(file, { force: true });
    ({ started: daemon, ended: exited } = launch());
    prepared.pid = daemon.pid;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (docker(socketPath, ["version"]).status !== 0) {
      if (Date.now() > deadline || daemon.exitCode !== null) {
        throw new Error(`dockerd did not start again: ${readFileSync(log, "utf8").split("\n").filter((l) => /level=(error|fatal)|failed/.test(l)).slice(-2).join(" ")}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return prepared;
}

/**
 * Waits until the engine at `socketPath` answers, then imports the test image through it: the fixture. When either
 * fails, or `engine` (its process) ends first, it stops the engine and throws an error that names it.
 */
export async function prepareEngine({ name, socketPath, dir, engine, stop }) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (docker(socketPath, ["version", "--format", "{{.Server.Version}}"]).status !== 0) {
    if (engine.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rootfs = buildRootfs(dir);
  const tar = spawnSync("tar", ["-C", rootfs, "-c", "."], { maxBuffer: 64 * 1024 * 1024 });
  const imported = docker(socketPath, ["import", "-", TEST_IMAGE], tar.stdout);
  rmSync(rootfs, { recursive: true, force: true });
  if (imported.status !== 0) {
    await stop();
    throw new Error(`docker import through ${name} failed: ${imported.stderr}`);
  }
  return { socketPath, dir, image: TEST_IMAGE, pid: engine.pid, stop, docker: (args) => docker(socketPath, args) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  const reason = dockerUnavailableReason();
  if (!command || reason) {
    console.error(reason ? `docker-daemon: ${reason}` : "usage: node scripts/docker-daemon.mjs <command> [args…]");
    process.exit(reason ? 0 : 2);
  }
  const fixture = await startDockerDaemon();
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, DOCKER_FIXTURE: JSON.stringify({ socketPath: fixture.socketPath, image: fixture.image }) } });
  const code = await new Promise((resolve) => child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  await fixture.stop();
  process.exitCode = code;
}
