// The reference adapter with every exec call sent to a real host executor (issue 13): CONFORMANCE_HOST=sandbox runs
// the commands in bubblewrap, CONFORMANCE_HOST=node over SSH to the node described by SSH_FIXTURE (JSON: host, port,
// username, privateKey, hostKey; scripts/sshd-fixture.mjs provides one), CONFORMANCE_HOST=container in containers of
// the dockerd described by DOCKER_FIXTURE (JSON: socketPath, image; scripts/docker-daemon.mjs), registered as the
// sandbox host. A call that names its own host keeps it.
// Each worker keeps one executor from scenario to scenario and closes it after its last: the SSH connection, and for
// containers one container, whose workspace is the run's folder (CONFORMANCE_CONTAINER_FOLDER, which holds every
// scenario's folder; scripts/conformance-through-host.mjs makes it). A container's start and removal cost about
// 0.3 s of CPU, several times a command's.
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
    close: closeShared,
  };
}

function readHost(value: string | undefined): Host {
  if (value === "sandbox" || value === "node" || value === "container") return value;
  throw new Error(`CONFORMANCE_HOST must be "sandbox", "node" or "container" for the through-host adapter (got "${value ?? ""}").`);
}

/** The executor a worker keeps from its first scenario until the kit closes the adapter after its last. */
interface Shared {
  executor: HostExecutor;
  /** Settled once the executor can take a scenario's calls (a container is started). */
  ready: Promise<void>;
}
let shared: Shared | undefined;

/** Disposes the worker's executor; the next scenario, if any, makes a new one (after a failed start, say). */
async function dropShared(current: Shared): Promise<void> {
  if (shared === current) shared = undefined;
  await disposeExecutor(current.executor);
}

async function closeShared(): Promise<void> {
  if (shared) await dropShared(shared);
}

const disposeExecutor = (executor: HostExecutor): Promise<void> =>
  (executor as { dispose?: () => Promise<void> }).dispose?.() ?? Promise.resolve();

async function startThroughHost(host: Host, options: StartOptions): Promise<AdapterInstance> {
  let make: () => Shared;
  if (host === "container") {
    const runFolder = runFolderHolding(options.cwd);
    make = () => {
      const executor = containerExecutor(runFolder);
      return { executor, ready: warmUp(executor, runFolder) };
    };
  } else {
    make = () => ({ executor: createExecutor(host), ready: Promise.resolve() });
  }
  const current = (shared ??= make());
  try {
    await current.ready;
  } catch (error) {
    await dropShared(current);
    throw error;
  }
  // A scenario whose instance cannot start (its config refused) leaves the executor to the next one.
  const instance = await startReference(options, { [registeredAs(host)]: current.executor });
  return { ...instance, call: withHost(instance, host) };
}

/** The name the executor is registered under: containers take the sandbox host's place. */
const registeredAs = (host: Host): "sandbox" | "node" => (host === "container" ? "sandbox" : host);

/** Sends exec calls that name no host to the executor's. */
function withHost(instance: ReferenceInstance, host: Host): AdapterInstance["call"] {
  return (tool, args, call) => instance.call(tool, tool === "exec" && args["host"] === undefined ? { ...args, host: registeredAs(host) } : args, call);
}

/** The run's folder (CONFORMANCE_CONTAINER_FOLDER), which must hold the scenario's folder `cwd`. */
function runFolderHolding(cwd: string): string {
  const folder = process.env["CONFORMANCE_CONTAINER_FOLDER"]?.replace(/\/+$/, "");
  if (folder && cwd.startsWith(`${folder}/`)) return folder;
  throw new Error("CONFORMANCE_HOST=container needs CONFORMANCE_CONTAINER_FOLDER, a folder that holds the scenarios' folders "
    + "(the kit's TMPDIR): run the kit through scripts/conformance-through-host.mjs container.");
}

/**
 * A container executor whose workspace is `workspace`, mounted at its own path, so the paths a scenario names
 * (<cwd>) hold inside the container too. The kit's scenario folders belong to the user running it: the commands run
 * as that user to write them; as root (CI) that user is root, in the kit's own throwaway folder, so the run opts in
 * to root explicitly. One container serves every scope, and it is started before a scenario's first call (warmUp):
 * the scenarios time the engine's yields and timeouts, not the creation of a container (0.5–1 s, far more on a
 * loaded machine).
 */
function containerExecutor(workspace: string): HostExecutor {
  const raw = process.env["DOCKER_FIXTURE"];
  if (!raw) throw new Error("CONFORMANCE_HOST=container needs DOCKER_FIXTURE: run the kit through scripts/conformance-through-host.mjs container.");
  const { socketPath, image } = JSON.parse(raw) as { socketPath: string; image: string };
  const uid = process.getuid?.() ?? 0;
  return createContainerExecutor({
    image, docker: { socketPath }, user: `${uid}:${process.getgid?.() ?? 0}`, allowRoot: uid === 0, idleTtlMs: 60_000,
    scope: "shared", workspace, workspaceMount: workspace,
  });
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
