// Options of createContainerExecutor (issue 21), their defaults, and their checks at creation.
import { ExecProcessError, validateTimerDelay } from "../../engine/index.js";

/** Which commands share a container (OpenClaw's sandbox scope). */
export type ContainerScope = "session" | "agent" | "shared";
/** How the engine's working root is mounted at the workspace path: not at all, read-only, or read-write. */
export type WorkspaceAccess = "none" | "ro" | "rw";

/** Where the container engine (Docker, or Podman's Docker-compatible service) listens: passed to dockerode. */
export type DockerConnection =
  | { socketPath: string }
  | {
    host: string;
    port?: number;
    protocol: "ssh" | "https" | "http";
    /** ssh: the user, and ssh2 connection options (privateKey, …). */
    username?: string;
    sshOptions?: Record<string, unknown>;
    /** https: TLS material. */
    ca?: string | Buffer;
    cert?: string | Buffer;
    key?: string | Buffer;
  };

export interface ContainerExecutorOptions {
  /** The image every container starts from; it needs a POSIX /bin/sh, nothing else. It is never pulled. */
  image: string;
  /** The engine to use. @default dockerode's default: DOCKER_HOST, else /var/run/docker.sock */
  docker?: DockerConnection;
  /**
   * Named engines instead of `docker`, for `host: "node"`: the call's `node` picks one (omitted: the only one), as
   * createSshExecutor's nodes do; every other option applies to all of them.
   */
  nodes?: Record<string, DockerConnection>;
  /**
   * Which commands share a container: one per scope key ("session"), one per agent (the `agent:<name>` part of
   * the scope key; a key without it is its own agent), or one for all ("shared"). @default "session"
   */
  scope?: ContainerScope;
  /** The engine's working root mounted at `workspaceMount`. @default "rw" */
  workspaceAccess?: WorkspaceAccess;
  /** The host directory mounted as the workspace (a path on the engine's machine). @default the engine's cwd */
  workspace?: string;
  /** Where the workspace appears inside the container. @default "/workspace" */
  workspaceMount?: string;
  /**
   * The user commands run as, `uid:gid` or a name the image knows. @default this process's uid:gid when the engine
   * is local and this process is not root (files in the workspace stay the user's), else "65534:65534" (nobody)
   */
  user?: string;
  /** Docker's network mode; "none" gives the container no interface but loopback. @default "none" */
  network?: string;
  /** Memory limit (no swap on top): bytes, or Docker's form such as "256m", "1g". @default "512m" */
  memory?: number | string;
  /** CPUs the container may use, e.g. 1.5. @default 1 */
  cpus?: number;
  /** Most processes the container may hold at once (fork bombs stop there). @default 256 */
  pidsLimit?: number;
  /** Size of the container's private /tmp (memory): bytes or Docker's form. @default "256m" */
  tmpSize?: number | string;
  /** A container with no command running is removed after this long; the next command starts a fresh one. @default 600000 */
  idleTtlMs?: number;
}

export interface NormalizedContainerOptions {
  image: string;
  docker: DockerConnection | undefined;
  /** The named engines, in their order; undefined when the executor has one engine (`docker`). */
  nodes: Map<string, DockerConnection> | undefined;
  scope: ContainerScope;
  workspaceAccess: WorkspaceAccess;
  workspace: string | undefined;
  workspaceMount: string;
  user: string;
  /** The `user` option as given: without it, each engine gets its defaultUser. */
  configuredUser: string | undefined;
  network: string;
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  tmpSizeBytes: number;
  idleTtlMs: number;
}

const DEFAULTS = { scope: "session", workspaceAccess: "rw", workspaceMount: "/workspace", network: "none", memory: "512m", cpus: 1, pidsLimit: 256, tmpSize: "256m", idleTtlMs: 600_000 } as const;
const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
const MIN_MEMORY_BYTES = 6 * 1024 * 1024; // Docker's own floor

export function normalizeContainerOptions(options: ContainerExecutorOptions): NormalizedContainerOptions {
  const o = { ...DEFAULTS, ...options };
  if (typeof o.image !== "string" || o.image.trim() === "") invalid("image", String(o.image), "an image name such as \"alpine:3.20\"");
  oneOf("scope", o.scope, ["session", "agent", "shared"]);
  oneOf("workspaceAccess", o.workspaceAccess, ["none", "ro", "rw"]);
  if (!o.workspaceMount.startsWith("/") || o.workspaceMount === "/") invalid("workspaceMount", o.workspaceMount, "an absolute path other than /");
  if (!Number.isFinite(o.cpus) || o.cpus <= 0) invalid("cpus", String(o.cpus), "a number of CPUs above 0, such as 1.5");
  if (!Number.isSafeInteger(o.pidsLimit) || o.pidsLimit < 8) invalid("pidsLimit", String(o.pidsLimit), "a whole number of at least 8");
  const memoryBytes = parseBytes("memory", o.memory);
  if (memoryBytes < MIN_MEMORY_BYTES) invalid("memory", String(o.memory), "at least 6 MiB (Docker's minimum)");
  const nodes = options.nodes === undefined ? undefined : new Map(Object.entries(options.nodes));
  if (nodes && options.docker !== undefined) invalid("nodes", "nodes and docker", "either docker (one engine) or nodes (named engines), not both");
  if (nodes && nodes.size === 0) invalid("nodes", "{}", "at least one named engine, such as { build: { host: \"build\", protocol: \"ssh\" } }");
  return {
    image: o.image, docker: options.docker, nodes, scope: o.scope, workspaceAccess: o.workspaceAccess,
    workspace: options.workspace, workspaceMount: o.workspaceMount.replace(/\/+$/, ""), user: o.user ?? defaultUser(options.docker), configuredUser: options.user, network: o.network,
    memoryBytes, nanoCpus: Math.round(o.cpus * 1e9), pidsLimit: o.pidsLimit, tmpSizeBytes: parseBytes("tmpSize", o.tmpSize),
    idleTtlMs: validateTimerDelay("createContainerExecutor", "idleTtlMs", o.idleTtlMs),
  };
}

/** The settings of one engine of the executor: `docker` is that engine, and the default user is its own. */
export function engineSettings(settings: NormalizedContainerOptions, docker: DockerConnection | undefined): NormalizedContainerOptions {
  return { ...settings, docker, user: settings.configuredUser ?? defaultUser(docker) };
}

/** This process's uid:gid for a local engine when not root (files in the workspace stay the user's), else nobody. */
function defaultUser(docker: DockerConnection | undefined): string {
  const uid = process.getuid?.();
  const local = docker === undefined || "socketPath" in docker;
  return local && uid !== undefined && uid !== 0 ? `${uid}:${process.getgid?.() ?? uid}` : "65534:65534";
}

/** Docker's size forms: a byte count, or digits with b, k, m or g (any case). */
export function parseBytes(option: string, value: number | string): number {
  const match = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)\s*([bkmg]?)\s*$/i.exec(value) : null;
  const bytes = typeof value === "number" ? value : match ? Math.floor(Number(match[1]) * (UNITS[match[2]!.toLowerCase()] ?? 1)) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) invalid(option, String(value), "a number of bytes or Docker's form such as \"256m\" or \"1g\"");
  return bytes;
}

/** A byte count as the out-of-memory note shows it: whole MiB or GiB where it is one, else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  return `${bytes} bytes`;
}

/**
 * The container a call's scope key maps to. Scope keys of the LangChain surface are `agent:<name>`, `thread:<id>`
 * or a caller's own; OpenClaw's session keys are `agent:<name>:<rest>`, so an agent is the first two fields.
 */
export function containerKey(scope: ContainerScope, scopeKey: string): string {
  if (scope === "shared") return "shared";
  if (scope === "session") return `session:${scopeKey}`;
  const agent = /^agent:[^:]*/.exec(scopeKey);
  return `agent:${agent ? agent[0].slice("agent:".length) : scopeKey}`;
}

function oneOf(option: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) invalid(option, value, `one of ${allowed.map((v) => `"${v}"`).join(", ")}`);
}

function invalid(option: string, value: string, expected: string): never {
  throw new ExecProcessError({ code: "invalid-option", owner: "createContainerExecutor", option, value, expected });
}
