// What a container of the executor is created with: its labels and its isolation (issue 21).
import type { ContainerCreateOptions } from "dockerode";
import { STATUS_DIR } from "./command-wrapper.js";
import type { NormalizedContainerOptions } from "./container-options.js";

/** Every container of this package carries it; its value is the token of the executor that made it. */
export const EXECUTOR_LABEL = "io.github.langchain-exec-process.executor";
/** `<hostname>:<pid>` of the process that made it: the leftover sweep checks whether that process still lives. */
export const OWNER_LABEL = "io.github.langchain-exec-process.owner";
/** The container key (container-options.ts `containerKey`) the container serves. */
export const SCOPE_LABEL = "io.github.langchain-exec-process.scope";

/**
 * The container's main process waits for its standard input to end. The executor holds that input open over an
 * attached connection, so the container ends (and is removed: AutoRemove) when the executor's process ends, even
 * by SIGKILL, or when its connection to the engine drops. Pure sh, so any image with /bin/sh can serve.
 */
export const KEEPALIVE_COMMAND = ["/bin/sh", "-c", "while read -r _; do :; done"];

export interface ContainerIdentity {
  token: string;
  owner: string;
  key: string;
}

/** The create request of a container: no network, read-only root, no capabilities, limits, the workspace mount. */
export function containerSpec(
  settings: NormalizedContainerOptions, identity: ContainerIdentity, workspaceRoot: string | undefined,
): ContainerCreateOptions {
  const binds = workspaceRoot === undefined || settings.workspaceAccess === "none"
    ? [] : [`${workspaceRoot}:${settings.workspaceMount}:${settings.workspaceAccess}`];
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
      Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${settings.tmpSizeBytes}`, [STATUS_DIR]: "rw,nosuid,nodev,noexec,mode=1777,size=1m" },
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
