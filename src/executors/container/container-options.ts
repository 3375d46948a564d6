// Options of createContainerExecutor (issue 21), their defaults, and their checks at creation.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { ExecProcessError, validateTimerDelay } from "../../engine/index.js";
import * as messages from "../../engine/messages.js";

/** Which commands share a container (OpenClaw's sandbox scope). */
export type ContainerScope = "session" | "agent" | "shared";
/**
 * Whether commands get a workspace at `workspaceMount`: none, or one read-only or read-write. Without `workspace`
 * it is the container's private workspace; with it, that host directory.
 */
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
  /** How commands reach the workspace at `workspaceMount`. @default "rw" */
  workspaceAccess?: WorkspaceAccess;
  /**
   * A host directory (a path on the engine's machine) mounted as the workspace, the operator's explicit choice; the
   * engine's cwd maps to it. `/`, system directories, home directories' roots and any directory that holds a
   * container engine's socket or state are refused. @default a private workspace per container: a tmpfs of
   * `workspaceSize` owned by the container's user, gone with the container
   */
  workspace?: string;
  /** Size of the private workspace (memory, counted against `memory`): bytes or Docker's form. @default "256m" */
  workspaceSize?: number | string;
  /** Where the workspace appears inside the container. @default "/workspace" */
  workspaceMount?: string;
  /**
   * The user commands run as, `uid:gid` or a name the image knows. @default with a local engine, the owner of
   * `workspace` when it is not root, else this process's uid:gid when it is not root; else "65534:65534" (nobody)
   */
  user?: string;
  /**
   * Lets commands run as uid 0 of the container (`user: "0:0"` or "root"). Root in a container with no capabilities
   * still owns every root-owned file of the image's writable mounts and of `workspace` (setuid files included).
   * @default false
   */
  allowRoot?: boolean;
  /** Most containers the executor keeps at once, over all its engines; a command that needs one more is refused. @default 16 */
  maxContainers?: number;
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
  workspaceSizeBytes: number;
  user: string;
  /** The `user` option as given: without it, each engine gets its defaultUser. */
  configuredUser: string | undefined;
  network: string;
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  tmpSizeBytes: number;
  idleTtlMs: number;
  allowRoot: boolean;
  maxContainers: number;
}

/** The executor's defaults (README, Containers): each number and choice has this one source. */
export const CONTAINER_DEFAULTS = Object.freeze({
  scope: "session", workspaceAccess: "rw", workspaceMount: "/workspace", workspaceSize: "256m", network: "none",
  memory: "512m", cpus: 1, pidsLimit: 256, tmpSize: "256m", idleTtlMs: 600_000, allowRoot: false, maxContainers: 16,
} as const);
/** The fixed numbers of the container executor (issue 32). */
export const CONTAINER_LIMITS = Object.freeze({
  /**
   * An engine request unanswered after ENGINE_PING_AFTER_MS, and a ping then unanswered until ENGINE_ANSWER_MS after
   * the request, is an engine that stopped (engine-watch.ts).
   */
  ENGINE_ANSWER_MS: 5_000,
  ENGINE_PING_AFTER_MS: 1_000,
  /** The most a status read from a container may return: a forged status cannot grow the host's memory. */
  STATUS_MAX_BYTES: 256,
  /** What the status exec takes from the status file: its longest valid line ("255 15 1"), with room. */
  STATUS_LINE_BYTES: 64,
  /** What the host takes from the check exec at a container's start (uid, entered or not, the folder's listing). */
  START_CHECK_MAX_BYTES: 1_024,
  /** A helper exec (kill, status, start check) still running after this is cut off, whatever the engine answers. */
  HELPER_EXEC_MAX_MS: 10_000,
  /** Each command's processes run with a group id of their own in this range, which they cannot shed (kill by group). */
  COMMAND_GID_FIRST: 40_000,
  COMMAND_GID_COUNT: 20_000,
});
const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
const MIN_MEMORY_BYTES = 6 * 1024 * 1024; // Docker's own floor

export function normalizeContainerOptions(options: ContainerExecutorOptions): NormalizedContainerOptions {
  const o = { ...CONTAINER_DEFAULTS, ...options };
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
  if (typeof o.allowRoot !== "boolean") invalid("allowRoot", String(o.allowRoot), "true or false");
  if (!Number.isSafeInteger(o.maxContainers) || o.maxContainers < 1) invalid("maxContainers", String(o.maxContainers), "a whole number of at least 1");
  if (options.user !== undefined && !o.allowRoot && isRootUser(options.user)) {
    throw new ExecProcessError({ code: "container-root-refused", user: options.user });
  }
  if (options.workspace !== undefined && o.workspaceAccess !== "none") refuseWorkspace(options.workspace);
  return {
    image: o.image, docker: options.docker, nodes, scope: o.scope, workspaceAccess: o.workspaceAccess,
    workspace: options.workspace, workspaceMount: o.workspaceMount.replace(/\/+$/, ""),
    workspaceSizeBytes: parseBytes("workspaceSize", o.workspaceSize), user: o.user ?? defaultUser(options.docker, options.workspace),
    configuredUser: options.user, network: o.network,
    memoryBytes, nanoCpus: Math.round(o.cpus * 1e9), pidsLimit: o.pidsLimit, tmpSizeBytes: parseBytes("tmpSize", o.tmpSize),
    idleTtlMs: validateTimerDelay("createContainerExecutor", "idleTtlMs", o.idleTtlMs), allowRoot: o.allowRoot,
    maxContainers: o.maxContainers,
  };
}

/** The settings of one engine of the executor: `docker` is that engine, and the default user is its own. */
export function engineSettings(settings: NormalizedContainerOptions, docker: DockerConnection | undefined): NormalizedContainerOptions {
  return { ...settings, docker, user: settings.configuredUser ?? defaultUser(docker, settings.workspace) };
}

/**
 * With a local engine: the owner of the operator's workspace when it is not root (the container's user can enter
 * it), else this process's uid:gid when not root (files stay the user's); otherwise, and for remote engines, nobody.
 */
function defaultUser(docker: DockerConnection | undefined, workspace: string | undefined): string {
  const local = docker === undefined || "socketPath" in docker;
  if (!local) return NOBODY;
  const owner = workspace === undefined ? undefined : ownerOf(workspace);
  if (owner && owner.uid !== 0) return `${owner.uid}:${owner.gid}`;
  const uid = process.getuid?.();
  return uid !== undefined && uid !== 0 ? `${uid}:${process.getgid?.() ?? uid}` : NOBODY;
}

const NOBODY = "65534:65534";

function ownerOf(path: string): { uid: number; gid: number } | undefined {
  try {
    const { uid, gid } = statSync(path);
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** `user` names uid 0: "0", "0:…", "root" or "root:…" (a name that maps to 0 in the image is caught at start). */
export function isRootUser(user: string): boolean {
  return /^(0|root)(:.*)?$/.test(user.trim());
}

/** Folders whose mount would hand the command the host: the root, system folders, and the roots of homes. */
const SYSTEM_DIRECTORIES = new Set(["/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
  "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var", "/var/lib",
  "/var/run", "/var/tmp", "/var/log", "/usr/local", "/usr/bin", "/usr/lib", "/usr/sbin", "/Users"]);

/**
 * Refuses a `workspace` that is a system folder or a home directory's root (as given, so also for a remote engine;
 * the real path and what it holds are checked again at the first container, when the engine is local).
 */
export function refuseWorkspace(workspace: string): void {
  if (typeof workspace !== "string" || !workspace.startsWith("/")) invalid("workspace", String(workspace), "an absolute path of a project folder");
  const reason = systemFolderReason(workspace);
  if (reason) throw new ExecProcessError({ code: "container-workspace-refused", path: workspace, reason });
}

/** Why `path` (absolute) may not be a workspace, or undefined. */
export function systemFolderReason(path: string): string | undefined {
  const clean = path.replace(/\/+$/, "") || "/";
  if (SYSTEM_DIRECTORIES.has(clean)) return clean === "/" ? "it is the host's root" : "it is a system directory";
  if (/^\/(home|Users)\/[^/]+$/.test(clean) || clean === homedir().replace(/\/+$/, "")) return "it is a home directory's root";
  return undefined;
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

/** What each option bounds, for the README's table (rendered from CONTAINER_DEFAULTS, never written by hand). */
const OPTION_NOTES: Record<keyof typeof CONTAINER_DEFAULTS, string> = {
  scope: "which commands share a container: per scope key, per agent, or one for all",
  workspaceAccess: "\"none\": no workspace (commands run in /tmp); \"ro\" or \"rw\": the workspace at workspaceMount",
  workspaceMount: "where the workspace appears inside the container",
  workspaceSize: "size of the private workspace (a tmpfs, counted against memory); without `workspace` only",
  network: "Docker's network mode: none gives only loopback",
  memory: "memory limit, no swap on top; a command killed at it ends with the out-of-memory note",
  cpus: "CPUs the container may use",
  pidsLimit: "most processes at once (a fork bomb stops there)",
  tmpSize: "size of the private /tmp (a tmpfs, counted against memory)",
  idleTtlMs: "a container without a running command is removed after this long",
  allowRoot: "lets `user` be uid 0 (refused otherwise)",
  maxContainers: "most containers of the executor at once, over all its engines",
};

/** The container executor's defaults and refusals as the README shows them, with the exact texts of the refusals. */
export function describeContainerTable(): string {
  const rows = Object.entries(CONTAINER_DEFAULTS).map(([option, value]) =>
    `| \`${option}\` | \`${JSON.stringify(value)}\` | ${OPTION_NOTES[option as keyof typeof CONTAINER_DEFAULTS]} |`);
  const refusals: Array<[string, string, string]> = [
    ["container-workspace-refused", "`workspace` is `/`, a system folder, a home directory's root, or holds an engine's socket or state",
      messages.containerWorkspaceRefused("/", "it is the host's root")],
    ["container-workspace-unreachable", "the container's user cannot enter `workspace` (checked when the container starts)",
      messages.containerWorkspaceUnreachable("/srv/ws", "0:0", "0700", "65534:65534")],
    ["container-root-refused", "`user` is uid 0 (or a name the image maps to 0) without `allowRoot`", messages.containerRootRefused("0:0")],
    ["container-limit", "a command needs a container beyond `maxContainers`", messages.containerLimit(16)],
    ["container-engine-unresponsive", `a request unanswered for ${CONTAINER_LIMITS.ENGINE_PING_AFTER_MS} ms, and a ping then unanswered until `
      + `${CONTAINER_LIMITS.ENGINE_ANSWER_MS} ms`, messages.containerEngineUnresponsive("the configured local socket", CONTAINER_LIMITS.ENGINE_ANSWER_MS)],
  ];
  return [
    "| Option | Default | What it bounds |", "|---|---|---|", ...rows, "",
    "| Error code | When | Exact text (example) |", "|---|---|---|",
    ...refusals.map(([code, when, text]) => `| \`${code}\` | ${when} | ${text.replaceAll("|", "\\|")} |`),
  ].join("\n");
}
