// createContainerExecutor: runs `host: "sandbox"` (or `host: "node"`) commands in Docker or Podman containers
// (issue 21, EXEC-08, EXEC-09). Never runs a command outside a container.
import {
  checkExecLimits, ExecProcessError, terminalName, type ExecutorProcess, type ExecutorSpawnRequest, type HostExecutor,
} from "../../engine/index.js";
import { formatBytes, normalizeContainerOptions, type ContainerExecutorOptions } from "./container-options.js";
import { createContainerPool } from "./container-pool.js";
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
 * (`scope`), with no network, a read-only root, no capabilities and resource limits by default.
 */
export function createContainerExecutor(options: ContainerExecutorOptions): ContainerExecutor {
  const settings = normalizeContainerOptions(options);
  const pool = createContainerPool(settings);
  const memoryLimit = formatBytes(settings.memoryBytes);
  return {
    token: pool.token,
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      // The container gets the call's env only: the engine's inherited environment is the host's, not the image's.
      const env: Record<string, string> = { ...request.envOverrides, OPENCLAW_SHELL: "exec" };
      if (request.pty) env["TERM"] = terminalName(request.env);
      const tooLarge = checkExecLimits({ shell: "/bin/sh", args: ["-c"], command: request.command, cwd: "/", env });
      if (tooLarge !== undefined) throw tooLarge;
      const lease = await pool.acquire(request.scopeKey, request.defaultCwd);
      try {
        const workdir = await containerWorkdir(request.cwd, request.defaultCwd, lease.workspace);
        return await startContainerCommand({
          docker: lease.docker, container: lease.container, command: request.command, workdir, env, pty: request.pty,
          memoryLimit, onDone: lease.release,
        });
      } catch (error) {
        lease.release();
        throw ExecProcessError.is(error) ? error : containerError(error, settings.docker, settings.image);
      }
    },
    dispose: () => pool.dispose(),
  };
}
