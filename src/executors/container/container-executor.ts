// createContainerExecutor: runs `host: "sandbox"` (or `host: "node"`) commands in Docker or Podman containers
// (issue 21, EXEC-08, EXEC-09). Never runs a command outside a container.
import {
  abortError, checkExecLimits, ExecProcessError, terminalName, type ExecutorProcess, type ExecutorSpawnRequest, type HostExecutor,
} from "../../engine/index.js";
import {
  engineSettings, formatBytes, normalizeContainerOptions, type ContainerExecutorOptions, type DockerConnection,
  type NormalizedContainerOptions,
} from "./container-options.js";
import { createContainerBudget, createContainerPool, newExecutorToken, type ContainerLease, type ContainerPool } from "./container-pool.js";
import { startContainerCommand } from "./container-process.js";
import { containerError } from "./docker-errors.js";
import { containerWorkdir } from "./workspace-path.js";

export type { ContainerExecutorOptions };

export interface ContainerExecutor extends HostExecutor {
  /** The value of the label `io.github.langchain-exec-process.executor` on this executor's containers. */
  readonly token: string;
  /** Removes every container of the executor; call it after the engines that use it were disposed. */
  dispose(): Promise<void>;
}

/**
 * A HostExecutor whose commands run in containers of `options.image`, one per scope key, agent, or for all
 * (`scope`), with no network, a read-only root, no capabilities, a private workspace, a non-root user and resource
 * limits by default.
 */
export function createContainerExecutor(options: ContainerExecutorOptions): ContainerExecutor {
  const settings = normalizeContainerOptions(options);
  const token = newExecutorToken();
  const budget = createContainerBudget(settings.maxContainers);
  // One pool per engine, made at its first command: `docker`'s, or one per named node.
  const pools = new Map<string, ContainerPool>();
  const poolOf = (name: string, docker: DockerConnection | undefined): ContainerPool => {
    let pool = pools.get(name);
    if (!pool) pools.set(name, pool = createContainerPool(engineSettings(settings, docker), token, budget));
    return pool;
  };
  const memoryLimit = formatBytes(settings.memoryBytes);
  let disposed = false;
  return {
    token,
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      // The container gets the call's env only: the engine's inherited environment is the host's, not the image's.
      const env: Record<string, string> = { ...request.envOverrides, OPENCLAW_SHELL: "exec" };
      if (request.pty) env["TERM"] = terminalName(request.env);
      const tooLarge = checkExecLimits({ shell: "/bin/sh", args: ["-c"], command: request.command, cwd: "/", env });
      if (tooLarge !== undefined) throw tooLarge;
      if (disposed) throw new ExecProcessError({ code: "engine-disposed" });
      const [name, docker] = pickEngine(settings, request.node);
      const lease = await unlessAborted(poolOf(name, docker).acquire(request.scopeKey, request.defaultCwd), request.signal);
      try {
        const workdir = await containerWorkdir(request.cwd, request.defaultCwd, lease.workspace);
        return await startContainerCommand({
          engine: lease.engine, container: lease.container, command: request.command, workdir, env, pty: request.pty,
          memoryLimit, gid: lease.gid, user: lease.execUser, onDone: lease.release,
        });
      } catch (error) {
        lease.release();
        throw ExecProcessError.is(error) ? error : containerError(error, docker, settings.image);
      }
    },
    async dispose() {
      disposed = true;
      await Promise.all([...pools.values()].map((pool) => pool.dispose()));
    },
  };
}

/**
 * The lease, or the call's abort: an aborted call stops waiting for its container, whose creation goes on (other
 * calls of its scope may wait for it too) and which the idle timer removes if nothing uses it.
 */
function unlessAborted(pending: Promise<ContainerLease>, signal: AbortSignal | undefined): Promise<ContainerLease> {
  if (!signal) return pending;
  if (signal.aborted) {
    void pending.then((lease) => lease.release(), () => undefined);
    return Promise.reject(abortError());
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then((lease) => {
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) lease.release();
      else resolve(lease);
    }, (error: unknown) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}

/**
 * The engine of a call: `docker`'s, or with `nodes` the one its `node` names (omitted: the only one), refused with
 * the known names otherwise, as createSshExecutor does (EXEC-10).
 */
function pickEngine(settings: NormalizedContainerOptions, requested: string | undefined): [string, DockerConnection | undefined] {
  if (!settings.nodes) return ["", settings.docker];
  const name = requested ?? (settings.nodes.size === 1 ? [...settings.nodes.keys()][0] : undefined);
  const docker = name === undefined ? undefined : settings.nodes.get(name);
  if (name === undefined || !docker) {
    throw new ExecProcessError({ code: "unknown-node", param: "node", node: requested, knownNodes: [...settings.nodes.keys()] });
  }
  return [name, docker];
}
