// Working directory resolution and check (EXEC-18 … EXEC-20, EXEC-23).
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";

export type WorkdirResolution = { ok: true; cwd: string } | { ok: false; requested: string };

/** Resolves `workdir` against the default cwd; the directory must exist. No `~` or variable expansion. */
export function resolveWorkdir(workdir: unknown, defaultCwd: string): WorkdirResolution {
  const requested = typeof workdir === "string" && workdir !== "" ? workdir : defaultCwd;
  if (requested.trim() === "") return { ok: false, requested };
  const full = resolve(defaultCwd, requested);
  try {
    // realpath(3) in one call, then one stat: the JavaScript realpath reads every component of the path.
    const cwd = realpathSync.native(full);
    return statSync(cwd).isDirectory() ? { ok: true, cwd } : { ok: false, requested };
  } catch {
    return { ok: false, requested };
  }
}

/** The directory an executor is asked to use: resolved, but not checked (EXEC-09). */
export function resolveExecutorWorkdir(workdir: unknown, defaultCwd: string): string {
  return typeof workdir === "string" && workdir !== "" ? resolve(defaultCwd, workdir) : defaultCwd;
}
