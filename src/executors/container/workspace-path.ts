// Where a command's working directory is inside its container: the workspace mount holds the engine's working
// root, and a workdir maps into it; one outside it is refused before anything runs (issue 21).
import { realpath } from "node:fs/promises";
import { isAbsolute, posix, relative, resolve } from "node:path";
import { ExecProcessError } from "../../engine/index.js";

/** A container without a workspace runs its commands here. */
export const NO_WORKSPACE_DIR = "/tmp";

export interface WorkspaceMapping {
  /** The mounted directory, undefined with workspaceAccess "none". */
  root: string | undefined;
  mount: string;
  /** The engine runs on the container engine's machine: paths are checked there, with symbolic links resolved. */
  local: boolean;
}

/** The workdir inside the container for the host `cwd`, or a workdir ExecProcessError. */
export async function containerWorkdir(cwd: string, defaultCwd: string, mapping: WorkspaceMapping): Promise<string> {
  if (mapping.root === undefined) {
    if (resolve(cwd) !== resolve(defaultCwd)) throw new ExecProcessError({ code: "container-workdir-outside", param: "workdir", cwd });
    return NO_WORKSPACE_DIR;
  }
  const real = mapping.local ? await realDirectory(cwd) : resolve(cwd);
  const path = relative(mapping.root, real);
  if (path === ".." || path.startsWith("../") || isAbsolute(path)) {
    throw new ExecProcessError({ code: "container-workdir-outside", param: "workdir", cwd, root: mapping.root });
  }
  return path === "" ? mapping.mount : posix.join(mapping.mount, ...path.split("/"));
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
