// The containers of one executor (issues 21, 32): started lazily per container key, kept while commands use them,
// removed once idle for idleTtlMs, on dispose, and (through their keepalive input) when this process ends. A new
// container is checked before its first command: its workspace is one that hands the command nothing of the host,
// its user is not root unless allowed, and that user can enter the workspace.
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { isAbsolute, relative } from "node:path";
import type { Duplex } from "node:stream";
import type Dockerode from "dockerode";
import { ExecProcessError } from "../../engine/index.js";
import { CONTAINER_LIMITS, containerKey, systemFolderReason, type NormalizedContainerOptions } from "./container-options.js";
import { containerSpec, numericUser, type EngineKind } from "./container-spec.js";
import { containerError, endpointName } from "./docker-errors.js";
import { execHelper } from "./exec-call.js";
import { watched, type WatchedEngine } from "./engine-watch.js";
import { loadDockerode } from "./load-dockerode.js";
import { ownerId, removeLeftovers } from "./container-leftovers.js";
import { workspaceRoot, type WorkspaceMapping } from "./workspace-path.js";

/** A container in use by one command: release it when the command has ended. */
export interface ContainerLease {
  container: Dockerode.Container;
  docker: Dockerode;
  /** The engine's name in messages, and its ping: for watched requests (engine-watch.ts). */
  engine: WatchedEngine & { docker: Dockerode };
  workspace: WorkspaceMapping;
  /** The command's own group id (COMMAND_GID_*), and the user to run it as (`<user>:<gid>`). */
  gid: number;
  execUser: string;
  release(): void;
}

export interface ContainerPool {
  /** The executor's token, the value of EXECUTOR_LABEL on its containers. */
  readonly token: string;
  acquire(scopeKey: string, defaultCwd: string): Promise<ContainerLease>;
  /** Removes every container; later acquires are refused. */
  dispose(): Promise<void>;
}

/** The executor's container count, shared by the pools of its engines (maxContainers). */
export interface ContainerBudget {
  /** Takes a place for a new container; false when all `max` are taken. */
  take(): boolean;
  give(): void;
  readonly max: number;
}

export function createContainerBudget(max: number): ContainerBudget {
  let used = 0;
  return {
    max,
    take: () => (used < max ? (used += 1, true) : false),
    give: () => void (used = Math.max(0, used - 1)),
  };
}

interface Client {
  docker: Dockerode;
  swept: Promise<unknown>;
  kind: Promise<EngineKind>;
  /** The engine's state folder, asked once per connection (Podman's answer costs about 0.2 s of CPU). */
  stateRoot: () => Promise<string | undefined>;
}

/** Reads the engine's state folder at the first call and keeps it; a failed read is asked again next time. */
function engineStateRoot(engine: WatchedEngine & { docker: Dockerode }): () => Promise<string | undefined> {
  let known: Promise<string | undefined> | undefined;
  return () => known ??= watched(engine, engine.docker.info() as Promise<{ DockerRootDir?: string }>).then(
    (info) => info.DockerRootDir,
    () => {
      known = undefined;
      return undefined;
    },
  );
}

/**
 * Podman answers a ping on its own API's path, where Docker has none (404). Not the version's components: Podman
 * looks up its helpers' packages for them, about 0.2 s of CPU per request.
 */
function engineKind(docker: Dockerode): Promise<EngineKind> {
  return new Promise((resolve, reject) => {
    const request = { path: "/libpod/_ping", method: "GET", statusCodes: { 200: true, 404: "not podman" } };
    docker.modem.dial(request, (error) => {
      if ((error as { statusCode?: number } | null)?.statusCode === 404) resolve("docker");
      else if (error) reject(error);
      else resolve("podman");
    });
  });
}

interface Entry {
  container: Dockerode.Container;
  workspace: WorkspaceMapping;
  keepalive: Duplex;
  active: number;
  idleTimer: NodeJS.Timeout | undefined;
  gone: boolean;
  /** The next command group id to hand out, cycling through the range. */
  nextGid: number;
}

/** A new executor token: the pools of one executor's engines share it. */
export function newExecutorToken(): string {
  return randomBytes(6).toString("hex");
}

export function createContainerPool(
  settings: NormalizedContainerOptions, token = newExecutorToken(), budget = createContainerBudget(settings.maxContainers),
): ContainerPool {
  const local = settings.docker === undefined || "socketPath" in settings.docker;
  const endpoint = endpointName(settings.docker);
  const entries = new Map<string, Promise<Entry>>();
  // Containers whose removal failed (the engine was gone): removed at the next use of the engine, or on dispose.
  const unremoved = new Set<Dockerode.Container>();
  // Watched (engine-watch.ts): a stopped engine cannot hold a removal, so neither the idle timer nor dispose hangs.
  const removeNow = async (container: Dockerode.Container): Promise<void> => {
    const { docker } = await connect();
    await watched({ docker, endpoint }, container.remove({ force: true }) as Promise<unknown>).then(
      () => void unremoved.delete(container),
      (error: { statusCode?: number }) => void (error.statusCode === 404 ? unremoved.delete(container) : unremoved.add(container)),
    );
  };
  let disposed = false;
  let client: Promise<Client> | undefined;
  const connect = (): Promise<Client> => {
    client ??= loadDockerode().then((Docker) => {
      const docker = new Docker(settings.docker as Dockerode.DockerOptions | undefined);
      // The sweep runs once, at the first use; a failure is reported by the container creation that follows.
      const swept = watched({ docker, endpoint }, removeLeftovers(docker)).catch(() => 0);
      const kind = watched({ docker, endpoint }, engineKind(docker)).catch((): EngineKind => "docker");
      return { docker, swept, kind, stateRoot: engineStateRoot({ docker, endpoint }) };
    }, (error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };

  const remove = (key: string, entry: Entry): Promise<void> => {
    if (entry.gone) return Promise.resolve();
    entry.gone = true;
    budget.give();
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    void entries.get(key)?.then((current) => {
      if (current === entry) entries.delete(key);
    }, () => undefined);
    entry.keepalive.destroy();
    return removeNow(entry.container);
  };

  const create = async (key: string): Promise<Entry> => {
    const { docker, swept, kind, stateRoot } = await connect();
    const engine = { docker, endpoint };
    await swept;
    await Promise.all([...unremoved].map(removeNow));
    const root = settings.workspaceAccess === "none" || settings.workspace === undefined
      ? undefined : await operatorWorkspace(stateRoot, settings, local);
    const workspace: WorkspaceMapping = {
      root, mount: settings.workspaceMount, local, private: root === undefined && settings.workspaceAccess !== "none",
    };
    if (!budget.take()) throw new ExecProcessError({ code: "container-limit", maxContainers: budget.max });
    let container: Dockerode.Container;
    try {
      container = await watched(engine, docker.createContainer(containerSpec(settings, { token, owner: ownerId(), key }, root, await kind)));
    } catch (error) {
      budget.give();
      throw containerError(error, settings.docker, settings.image);
    }
    let entry: Entry | undefined;
    try {
      const keepalive = await watched(engine, container.attach({ stream: true, stdin: true, stdout: false, stderr: false, hijack: true }) as Promise<Duplex>);
      await watched(engine, container.start() as Promise<unknown>);
      // The connection must not keep this process alive: its end is what ends the container.
      (keepalive as { unref?: () => void }).unref?.();
      const started: Entry = entry = { container, workspace, keepalive, active: 0, idleTimer: undefined, gone: false, nextGid: 0 };
      keepalive.once("close", () => void remove(key, started));
      keepalive.on("error", () => void remove(key, started));
      await checkStart(engine, container, settings, workspace);
      return started;
    } catch (error) {
      if (entry) await remove(key, entry);
      else {
        budget.give();
        await container.remove({ force: true }).catch(() => undefined);
      }
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
        pending = create(key);
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
      const gid = commandGid(entry, numericUser(settings.user).gid);
      let released = false;
      return {
        container: entry.container, docker, engine: { docker, endpoint }, workspace: entry.workspace,
        gid, execUser: `${settings.user.split(":")[0]}:${gid}`,
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
      await Promise.allSettled([...entries.entries()].map(async ([key, pending]) => remove(key, await pending)));
      entries.clear();
      await Promise.allSettled([...unremoved].map(removeNow));
    },
  };
}

/** The next group id of the range for a command of `entry`, never the user's own group. */
function commandGid(entry: Entry, userGid: number | undefined): number {
  const { COMMAND_GID_FIRST, COMMAND_GID_COUNT } = CONTAINER_LIMITS;
  let gid: number;
  do {
    gid = COMMAND_GID_FIRST + (entry.nextGid % COMMAND_GID_COUNT);
    entry.nextGid += 1;
  } while (gid === userGid);
  return gid;
}

/**
 * The operator's workspace as mounted: its real path (local engine), refused when it is a system folder or holds
 * the engine's socket, the engine's state (its root directory) or another engine's well-known socket or state.
 */
async function operatorWorkspace(
  stateRoot: () => Promise<string | undefined>, settings: NormalizedContainerOptions, local: boolean,
): Promise<string> {
  const root = await workspaceRoot(settings.workspace!, local);
  const refuse = (reason: string): never => {
    throw new ExecProcessError({ code: "container-workspace-refused", path: settings.workspace!, reason });
  };
  const systemReason = systemFolderReason(root);
  if (systemReason) refuse(systemReason);
  const engineState = await stateRoot();
  const inside = (path: string | undefined): boolean => {
    if (!path) return false;
    const rest = relative(root, path);
    return rest === "" || (!rest.startsWith("..") && !isAbsolute(rest));
  };
  if (inside(engineState)) refuse("it holds the container engine's state");
  if (!local) return root;
  const sockets = [
    settings.docker && "socketPath" in settings.docker ? settings.docker.socketPath : undefined,
    /^unix:\/\/(.+)$/.exec(process.env["DOCKER_HOST"] ?? "")?.[1],
    ...WELL_KNOWN_ENGINE_PATHS, `${homedir()}/.local/share/containers`, `${homedir()}/.docker`,
    process.env["XDG_RUNTIME_DIR"] ? `${process.env["XDG_RUNTIME_DIR"]}/podman` : undefined,
    process.env["XDG_RUNTIME_DIR"] ? `${process.env["XDG_RUNTIME_DIR"]}/docker.sock` : undefined,
  ];
  if (sockets.some(inside)) refuse("it holds a container engine's socket or state");
  return root;
}

const WELL_KNOWN_ENGINE_PATHS = [
  "/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock", "/var/run/podman/podman.sock",
  "/run/containerd/containerd.sock", "/var/lib/docker", "/var/lib/containers", "/var/lib/containerd",
];

/**
 * Before the container's first command: its user's uid (root refused unless allowRoot, also a name the image maps to
 * 0), and whether that user can enter the workspace (refused with the folder's owner and mode, as the container sees
 * them, when it cannot).
 */
async function checkStart(
  engine: WatchedEngine & { docker: Dockerode }, container: Dockerode.Container, settings: NormalizedContainerOptions,
  workspace: WorkspaceMapping,
): Promise<void> {
  const mount = workspace.root === undefined && !workspace.private ? "" : workspace.mount;
  const said = await execHelper(engine, container, ["/bin/sh", "-c",
    'id -u; [ -z "$1" ] && exit 0; if cd -- "$1" 2>/dev/null; then echo in; else echo out; ls -ldn -- "$1"; fi', "sh", mount,
  ], { maxBytes: CONTAINER_LIMITS.START_CHECK_MAX_BYTES });
  const [uid, entered, listing] = said.split("\n");
  if (uid === "0" && !settings.allowRoot) throw new ExecProcessError({ code: "container-root-refused", user: settings.user });
  if (entered !== "out") return;
  const fields = (listing ?? "").trim().split(/\s+/);
  throw new ExecProcessError({
    code: "container-workspace-unreachable", path: workspace.root ?? workspace.mount,
    owner: fields[2] !== undefined && fields[3] !== undefined ? `${fields[2]}:${fields[3]}` : "unknown",
    mode: modeOf(fields[0] ?? ""), user: settings.user,
  });
}

/** `drwx------` as "0700" (the permission bits only; setuid and sticky bits shown by ls as s/t count as x). */
function modeOf(permissions: string): string {
  const bits = permissions.slice(1, 10);
  if (bits.length !== 9) return "unknown";
  let mode = 0;
  for (const char of bits) mode = mode * 2 + (char === "-" || char === "S" || char === "T" ? 0 : 1);
  return `0${mode.toString(8).padStart(3, "0")}`;
}
