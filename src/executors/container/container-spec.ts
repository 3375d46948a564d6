// What a container of the executor is created with: its labels and its isolation (issue 21).
import type { ContainerCreateOptions } from "dockerode";
import { STATUS_DIR } from "./command-wrapper.js";
import type { NormalizedContainerOptions } from "./container-options.js";

/** Every container of this package carries it; its value is the token of the executor that made it. */
export const EXECUTOR_LABEL = "io.github.langchain-exec-process.executor";
/** The boot, pid namespace, pid and start time of the process that made it (container-leftovers.ts `ownerId`). */
export const OWNER_LABEL = "io.github.langchain-exec-process.owner";
/** The container key (container-options.ts `containerKey`) the container serves. */
export const SCOPE_LABEL = "io.github.langchain-exec-process.scope";

/**
 * The container's main process waits for its standard input to end. The executor holds that input open over an
 * attached connection, so the container ends (and is removed: AutoRemove) when the executor's process ends, even
 * by SIGKILL, or when its connection to the engine drops. Pure sh, so any image with /bin/sh can serve.
 */
export const KEEPALIVE_COMMAND = ["/bin/sh", "-c", "while read -r _; do :; done"];

/** Which engine serves the Docker API: they differ in the tmpfs options they take. */
export type EngineKind = "docker" | "podman";

export interface ContainerIdentity {
  token: string;
  owner: string;
  key: string;
}

/** The user's uid and gid when `user` gives them as numbers ("1000:1000", "1000"); a name gives neither. */
export function numericUser(user: string): { uid: number | undefined; gid: number | undefined } {
  const [uid, gid] = user.split(":").map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));
  return { uid, gid: user.includes(":") ? gid : uid };
}

/**
 * The create request of a container: no network, read-only root, no capabilities, limits, and the workspace: the
 * operator's folder (`workspaceRoot`) bound, or else the private workspace, a tmpfs owned by the container's user.
 */
export function containerSpec(
  settings: NormalizedContainerOptions, identity: ContainerIdentity, workspaceRoot: string | undefined, engine: EngineKind = "docker",
): ContainerCreateOptions {
  const access = settings.workspaceAccess;
  const binds = workspaceRoot === undefined || access === "none" ? [] : [`${workspaceRoot}:${settings.workspaceMount}:${access}`];
  const { uid, gid } = numericUser(settings.user);
  // Podman chowns a tmpfs to the container's user with `U` (it refuses uid=); Docker takes the kernel's uid= and gid=.
  const owner = engine === "podman" ? "mode=0700,U" : uid === undefined || gid === undefined ? "mode=1777" : `mode=0700,uid=${uid},gid=${gid}`;
  const privateWorkspace = workspaceRoot === undefined && access !== "none"
    ? { [settings.workspaceMount]: `${access},exec,nosuid,nodev,size=${settings.workspaceSizeBytes},${owner}` } : {};
  return {
    Image: settings.image,
    Cmd: KEEPALIVE_COMMAND,
    Entrypoint: [],
    User: settings.user,
    WorkingDir: "/",
    Labels: { [EXECUTOR_LABEL]: identity.token, [OWNER_LABEL]: identity.owner, [SCOPE_LABEL]: identity.key.slice(0, 200) },
    AttachStdin: true,
    OpenStdin: true,
    StdinOnce: true,
    Tty: false,
    NetworkDisabled: settings.network === "none",
    HostConfig: {
      AutoRemove: true,
      NetworkMode: settings.network,
      ReadonlyRootfs: true,
      Tmpfs: {
        "/tmp": `rw,nosuid,nodev,size=${settings.tmpSizeBytes}`, [STATUS_DIR]: "rw,nosuid,nodev,noexec,mode=1777,size=1m",
        ...privateWorkspace,
      },
      // Each command runs with a group of its own (kill by group): the user's own group stays one of its groups.
      ...(gid === undefined ? {} : { GroupAdd: [String(gid)] }),
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      Init: true,
      PidsLimit: settings.pidsLimit,
      Memory: settings.memoryBytes,
      MemorySwap: settings.memoryBytes,
      NanoCpus: settings.nanoCpus,
      Binds: binds,
    },
  };
}
