// The reference adapter with every exec call sent to a real host executor (issue 13): CONFORMANCE_HOST=sandbox runs
// the commands in bubblewrap, CONFORMANCE_HOST=node over SSH to the node described by SSH_FIXTURE (JSON: host, port,
// username, privateKey, hostKey; scripts/sshd-fixture.mjs provides one), CONFORMANCE_HOST=container in containers of
// the dockerd described by DOCKER_FIXTURE (JSON: socketPath, image; scripts/docker-daemon.mjs), registered as the
// sandbox host, one executor per scenario (its workspace is the scenario's folder). A call that names its own host
// keeps it.
// Rules that cannot hold through an executor are listed, with reasons, in through-host-exclusions.json.
import type { AdapterInstance, ConformanceAdapter, StartOptions } from "../adapter.js";
import { createContainerExecutor, createSandboxExecutor, createSshExecutor, type HostExecutor } from "../../src/index.js";
import { startReference, type ReferenceInstance } from "./reference.js";

type Host = "sandbox" | "node" | "container";

export default function createThroughHostAdapter(): ConformanceAdapter {
  const host = readHost(process.env["CONFORMANCE_HOST"]);
  return {
    name: `langchain-exec-process (reference, through host "${host}")`,
    capabilities: ["pty", "executor", "bridge"],
    start: (options) => startThroughHost(host, options),
  };
}

function readHost(value: string | undefined): Host {
  if (value === "sandbox" || value === "node" || value === "container") return value;
  throw new Error(`CONFORMANCE_HOST must be "sandbox", "node" or "container" for the through-host adapter (got "${value ?? ""}").`);
}

/** How long the worker's executor outlives its last scenario: the next scenario reuses its SSH connection, and the
 * connection still closes when the run is over, so the worker's event loop drains. */
const IDLE_CLOSE_MS = 1_000;
let shared: { host: Host; executor: HostExecutor; users: number; idleTimer?: NodeJS.Timeout } | undefined;

function acquireExecutor(host: Exclude<Host, "container">): HostExecutor {
  if (shared?.host !== host) shared = { host, executor: createExecutor(host), users: 0 };
  clearTimeout(shared.idleTimer);
  shared.users += 1;
  return shared.executor;
}

function releaseExecutor(): void {
  const current = shared;
  if (!current) return;
  current.users -= 1;
  if (current.users > 0) return;
  current.idleTimer = setTimeout(() => {
    if (shared === current) shared = undefined;
    void (current.executor as { dispose?: () => Promise<void> }).dispose?.();
  }, IDLE_CLOSE_MS);
}

async function startThroughHost(host: Host, options: StartOptions): Promise<AdapterInstance> {
  if (host === "container") return startInContainers(options);
  const executor = acquireExecutor(host);
  let instance: ReferenceInstance;
  try {
    instance = await startReference(options, { [host]: executor });
  } catch (error) {
    releaseExecutor();
    throw error;
  }
  let released = false;
  return {
    ...instance,
    call: (tool, args, call) => instance.call(tool, tool === "exec" && args["host"] === undefined ? { ...args, host } : args, call),
    async dispose() {
      await instance.dispose();
      if (!released) releaseExecutor();
      released = true;
    },
  };
}

async function startInContainers(options: StartOptions): Promise<AdapterInstance> {
  const raw = process.env["DOCKER_FIXTURE"];
  if (!raw) throw new Error("CONFORMANCE_HOST=container needs DOCKER_FIXTURE (run the kit through scripts/docker-daemon.mjs).");
  const { socketPath, image } = JSON.parse(raw) as { socketPath: string; image: string };
  // The kit's scenario folders belong to the user running it: the commands run as that user to write them. The
  // folder is mounted at its own path, so the paths a scenario names (<cwd>) hold inside the container too. One
  // container serves all scopes of the scenario, and it is started before the scenario's first call: the scenarios
  // time the engine's yields and timeouts, not the creation of a container (0.5–1 s, far more on a loaded machine).
  // As root (CI) that user is root: the kit's own throwaway folder, so the run opts in to root explicitly.
  const uid = process.getuid?.() ?? 0;
  const user = `${uid}:${process.getgid?.() ?? 0}`;
  const executor = createContainerExecutor({
    image, docker: { socketPath }, user, allowRoot: uid === 0, idleTtlMs: 60_000, scope: "shared", workspace: options.cwd,
    workspaceMount: options.cwd,
  });
  let instance: ReferenceInstance;
  try {
    await warmUp(executor, options.cwd);
    instance = await startReference(options, { sandbox: executor });
  } catch (error) {
    await executor.dispose();
    throw error;
  }
  return {
    ...instance,
    call: (tool, args, call) => instance.call(tool, tool === "exec" && args["host"] === undefined ? { ...args, host: "sandbox" } : args, call),
    async dispose() {
      await instance.dispose();
      await executor.dispose();
    },
  };
}

/** Runs `true` in the executor's container, which starts it. */
async function warmUp(executor: HostExecutor, cwd: string): Promise<void> {
  const process = await executor.spawn({
    command: "true", cwd, defaultCwd: cwd, env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "warm-up",
  });
  await new Promise<void>((resolve) => process.onExit(() => resolve()));
}

const FORWARDED_TO_NODE = ["LANG", "TERM", "CONFORMANCE_SCENARIO"];

function createExecutor(host: Exclude<Host, "container">): HostExecutor {
  if (host === "sandbox") return createSandboxExecutor();
  const raw = process.env["SSH_FIXTURE"];
  if (!raw) throw new Error("CONFORMANCE_HOST=node needs SSH_FIXTURE (run the kit through scripts/sshd-fixture.mjs).");
  const node = JSON.parse(raw) as { host: string; port: number; username: string; privateKey: string; hostKey: string };
  // Only these of the kit's controlled environment reach the node (issue 20): the locale and terminal name the kit
  // sets, and the scenario marker that its After hook looks for in /proc/<pid>/environ to find survivors.
  return createSshExecutor({ nodes: { fixture: node }, forwardEnv: FORWARDED_TO_NODE });
}
