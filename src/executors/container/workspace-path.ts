// Where a command's working directory is inside its container: the workspace mount stands for the engine's working
// root (the operator's folder, or for a private workspace the engine's cwd), and a workdir maps into it; one outside
// it is refused before anything runs (issues 21, 32).
import { realpath } from "node:fs/promises";
import { isAbsolute, posix, relative, resolve } from "node:path";
import { ExecProcessError } from "../../engine/index.js";

/** A container without a workspace runs its commands here. */
export const NO_WORKSPACE_DIR = "/tmp";

export interface WorkspaceMapping {
  /** The mounted host directory; undefined for a private workspace and with workspaceAccess "none". */
  root: string | undefined;
  mount: string;
  /** The engine runs on the container engine's machine: paths are checked there, with symbolic links resolved. */
  local: boolean;
  /** A private workspace (a tmpfs of the container): the engine's cwd maps to the mount, paths as written. */
  private?: boolean;
}

/** The workdir inside the container for the host `cwd`, or a workdir ExecProcessError. */
export async function containerWorkdir(cwd: string, defaultCwd: string, mapping: WorkspaceMapping): Promise<string> {
  if (mapping.private) return mapInto(relative(resolve(defaultCwd), resolve(cwd)), cwd, defaultCwd, mapping.mount);
  if (mapping.root === undefined) {
    if (resolve(cwd) !== resolve(defaultCwd)) throw new ExecProcessError({ code: "container-workdir-outside", param: "workdir", cwd });
    return NO_WORKSPACE_DIR;
  }
  const real = mapping.local ? await realDirectory(cwd) : resolve(cwd);
  return mapInto(relative(mapping.root, real), cwd, mapping.root, mapping.mount);
}

/** The path under `mount` for `path` relative to the workspace's root, or a workdir outside it refused. */
function mapInto(path: string, cwd: string, root: string, mount: string): string {
  if (path === ".." || path.startsWith("../") || isAbsolute(path)) {
    throw new ExecProcessError({ code: "container-workdir-outside", param: "workdir", cwd, root });
  }
  return path === "" ? mount : posix.join(mount, ...path.split("/"));
}

/** The real path of the workspace root to mount (local engine) or the path as given (an engine elsewhere). */
export async function workspaceRoot(path: string, local: boolean): Promise<string> {
  return local ? realDirectory(path) : resolve(path);
}

async function realDirectory(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    throw new ExecProcessError({ code: "sandbox-workdir-missing", param: "workdir", cwd: path });
  }
}
