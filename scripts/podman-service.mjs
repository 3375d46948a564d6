#!/usr/bin/env node
// A throwaway Podman service for the container executor (issue 21: Podman's Docker-compatible socket):
// `podman system service` on a private socket in a temp dir, with its storage and run state there too and a
// containers.conf of its own (CONTAINERS_CONF, nothing of the machine's is changed): cgroupfs and file events, since
// no systemd runs here, and rlimits below the machine's hard limits (Podman's defaults for root exceed them, and runc
// then refuses to start any container). Containers get no network from the executor itself (network "none"). The
// test image is the one scripts/docker-daemon.mjs builds, imported through the socket by the docker CLI. The service
// runs in its temp dir: the monitor of an exec whose container met its memory limit writes a file `oom` into its cwd.
//   node scripts/podman-service.mjs <command> [args…]
// runs the command with DOCKER_SOCKET and DOCKER_IMAGE set, which the container tests and the kit's container pass
// use instead of a private dockerd (scripts/docker-daemon.mjs, engineFromEnvironment), then stops the service.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { killProcessesNaming, prepareEngine, stopEngineProcess } from "./docker-daemon.mjs";

const PODMAN = ["/usr/bin/podman", "/usr/local/bin/podman"].find((path) => existsSync(path));
const CATATONIT = ["/usr/libexec/podman/catatonit", "/usr/bin/catatonit"].find((path) => existsSync(path));
const CONTAINERS_CONF = `[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
${CATATONIT ? `init_path = "${CATATONIT}"\n` : ""}
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
`;

/** Why a private Podman service cannot run here, or undefined when it can. */
export function podmanUnavailableReason() {
  if (!PODMAN) return "podman is not installed (apt-get install podman catatonit)";
  if (!CATATONIT) return "catatonit, Podman's init process, is not installed (apt-get install catatonit)";
  if (spawnSync("docker", ["--version"]).error) return "the docker CLI is not installed (apt-get install docker.io)";
  if (process.getuid?.() !== 0) return "this fixture runs Podman as root (a rootless service is not set up here)";
  return undefined;
}

// Podman keeps the monitor (conmon) of each exec alive for its exit delay (conmon's --exit-delay, 300 s here) after
// the exec ends, in a session of its own; those of this service (their command lines name its storage) end with it
// (killProcessesNaming, scripts/docker-daemon.mjs).

/** Starts the service, waits until it answers, imports the test image: a fixture of scripts/docker-daemon.mjs's shape. */
export async function startPodmanService() {
  const reason = podmanUnavailableReason();
  if (reason) throw new Error(`podman cannot run here: ${reason}`);
  const dir = mkdtempSync(join(tmpdir(), "exec-podman-"));
  const socketPath = join(dir, "podman.sock");
  writeFileSync(join(dir, "containers.conf"), CONTAINERS_CONF);
  const service = spawn(PODMAN, [
    "--root", join(dir, "storage"), "--runroot", join(dir, "run"), "--tmpdir", join(dir, "tmp"), "--storage-driver", "vfs",
    "system", "service", "--time=0", `unix://${socketPath}`,
  ], { stdio: "ignore", detached: true, cwd: dir, env: { ...process.env, CONTAINERS_CONF: join(dir, "containers.conf") } });
  service.unref();
  const exited = new Promise((resolve) => service.once("exit", resolve));
  const stop = async () => {
    await stopEngineProcess({ socketPath, engine: service, exited, group: true });
    killProcessesNaming(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  return prepareEngine({ name: "podman system service", socketPath, dir, engine: service, stop });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  const reason = podmanUnavailableReason();
  if (!command || reason) {
    console.error(reason ? `podman-service: ${reason}` : "usage: node scripts/podman-service.mjs <command> [args…]");
    process.exit(2);
  }
  const service = await startPodmanService();
  const child = spawn(command, args, { stdio: "inherit", env: {
    ...process.env, DOCKER_SOCKET: service.socketPath, DOCKER_IMAGE: service.image, DOCKER_ENGINE_PID: String(service.pid),
    DOCKER_ENGINE: "podman",
  } });
  const stopOn = (signal) => child.kill(signal);
  process.on("SIGINT", stopOn);
  process.on("SIGTERM", stopOn);
  const code = await new Promise((resolve) => child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  await service.stop();
  process.exitCode = code;
}
