// The containers of one executor (issue 21): started lazily per container key, kept while commands use them,
// removed once idle for idleTtlMs, on dispose, and (through their keepalive input) when this process ends.
import { randomBytes } from "node:crypto";
import type { Duplex } from "node:stream";
import type Dockerode from "dockerode";
import { ExecProcessError } from "../../engine/index.js";
import { containerKey, type NormalizedContainerOptions } from "./container-options.js";
import { containerSpec } from "./container-spec.js";
import { containerError } from "./docker-errors.js";
import { loadDockerode } from "./load-dockerode.js";
import { ownerId, removeLeftovers } from "./container-leftovers.js";
import { workspaceRoot, type WorkspaceMapping } from "./workspace-path.js";

/** A container in use by one command: release it when the command has ended. */
export interface ContainerLease {
  container: Dockerode.Container;
  docker: Dockerode;
  workspace: WorkspaceMapping;
  release(): void;
}

export interface ContainerPool {
  /** The executor's token, the value of EXECUTOR_LABEL on its containers. */
  readonly token: string;
  acquire(scopeKey: string, defaultCwd: string): Promise<ContainerLease>;
  /** Removes every container; later acquires are refused. */
  dispose(): Promise<void>;
}

interface Entry {
  container: Dockerode.Container;
  workspace: WorkspaceMapping;
  keepalive: Duplex;
  active: number;
  idleTimer: NodeJS.Timeout | undefined;
  gone: boolean;
}

/** A new executor token: the pools of one executor's engines share it. */
export function newExecutorToken(): string {
  return randomBytes(6).toString("hex");
}

export function createContainerPool(settings: NormalizedContainerOptions, token = newExecutorToken()): ContainerPool {
  const local = settings.docker === undefined || "socketPath" in settings.docker;
  const entries = new Map<string, Promise<Entry>>();
  let disposed = false;
  let client: Promise<{ docker: Dockerode; swept: Promise<unknown> }> | undefined;
  const connect = (): Promise<{ docker: Dockerode; swept: Promise<unknown> }> => {
    client ??= loadDockerode().then((Docker) => {
      const docker = new Docker(settings.docker as Dockerode.DockerOptions | undefined);
      // The sweep runs once, at the first use; a failure is reported by the container creation that follows.
      return { docker, swept: removeLeftovers(docker).catch(() => 0) };
    }, (error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };

  const remove = (key: string, entry: Entry): Promise<void> => {
    if (entry.gone) return Promise.resolve();
    entry.gone = true;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    void entries.get(key)?.then((current) => {
      if (current === entry) entries.delete(key);
    });
    entry.keepalive.destroy();
    return entry.container.remove({ force: true }).then(() => undefined, () => undefined);
  };

  const create = async (key: string, defaultCwd: string): Promise<Entry> => {
    const { docker, swept } = await connect();
    await swept;
    const root = settings.workspaceAccess === "none" ? undefined : await workspaceRoot(settings.workspace ?? defaultCwd, local);
    let container: Dockerode.Container;
    try {
      container = await docker.createContainer(containerSpec(settings, { token, owner: ownerId(), key }, root));
    } catch (error) {
      throw containerError(error, settings.docker, settings.image);
    }
    try {
      const keepalive = await container.attach({ stream: true, stdin: true, stdout: false, stderr: false, hijack: true }) as Duplex;
      await container.start();
      // The connection must not keep this process alive: its end is what ends the container.
      (keepalive as { unref?: () => void }).unref?.();
      const entry: Entry = { container, workspace: { root, mount: settings.workspaceMount, local }, keepalive, active: 0, idleTimer: undefined, gone: false };
      keepalive.once("close", () => void remove(key, entry));
      keepalive.on("error", () => void remove(key, entry));
      return entry;
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw containerError(error, settings.docker, settings.image);
    }
  };

  return {
    token,
    async acquire(scopeKey, defaultCwd) {
      if (disposed) throw new ExecProcessError({ code: "engine-disposed" });
      const key = containerKey(settings.scope, scopeKey);
      let pending = entries.get(key);
      if (!pending) {
        pending = create(key, defaultCwd);
        entries.set(key, pending);
        pending.catch(() => entries.get(key) === pending && entries.delete(key));
      }
      const entry = await pending;
      if (entry.gone) return this.acquire(scopeKey, defaultCwd);
      if (disposed) {
        await remove(key, entry);
        throw new ExecProcessError({ code: "engine-disposed" });
      }
      entry.active += 1;
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      entry.idleTimer = undefined;
      const { docker } = await connect();
      let released = false;
      return {
        container: entry.container, docker, workspace: entry.workspace,
        release: () => {
          if (released) return;
          released = true;
          entry.active -= 1;
          if (entry.active > 0 || entry.gone) return;
          entry.idleTimer = setTimeout(() => void remove(key, entry), settings.idleTtlMs);
          entry.idleTimer.unref();
        },
      };
    },
    async dispose() {
      disposed = true;
      const all = await Promise.allSettled([...entries.entries()].map(async ([key, pending]) => remove(key, await pending)));
      entries.clear();
      void all;
    },
  };
}
