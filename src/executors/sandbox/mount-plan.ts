// Which host paths one sandboxed command gets, resolved at each spawn: the working directory must lie inside an
// allowed root, every mount source must be a real path (a symbolic link in any component is refused, so a command
// cannot redirect a later mount by swapping a directory for a link), and the host's temporary directory, where the
// control channel lives, never appears inside. The supervisor then checks each mount's device and inode, which
// closes the gap between this check and bubblewrap's mount (supervisor.ts).
import { stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { ExecProcessError, type SandboxMountProblem } from "../../engine/index.js";
import { inspectHostPath, isWithin, type HostPath } from "./host-path.js";
import type { MountCheck } from "./supervisor.js";

/** An extra mount inside the sandbox. */
export interface SandboxBind {
  /** Path on the host: a real path (no symbolic link in it). */
  source: string;
  /** Absolute path inside the sandbox. @default source */
  target?: string;
  /** Mount read-only. @default false */
  readonly?: boolean;
}

/** A mount after the base view (bwrap-args.ts): a bind, or an empty tmpfs that hides a host path. */
export type MountStep = { kind: "bind" | "ro-bind"; source: string; target: string } | { kind: "hide"; target: string };

export interface MountPlan {
  /** The working directory's real path: mounted read-write at that path, and the shell's cwd. */
  cwd: string;
  steps: MountStep[];
  checks: MountCheck[];
  /** For each check, the option it comes from and the path as given (for a refusal's text). */
  labels: Array<{ option: string; path: string }>;
}

export interface MountPlanRequest {
  /** The working directory as the engine resolved it. */
  cwd: string;
  allowedRoots: readonly string[];
  writable: readonly string[];
  binds: readonly SandboxBind[];
  /** Host paths no view may show: the host's temporary directory and, without network, the socket folders. */
  hidden: readonly string[];
  /** The host's temporary directory (real path): nothing may mount it, or a folder above it, writable. */
  controlBase: string;
}

/** Paths the base view (bwrap-args.ts) covers with its own mounts: a private tmpfs, or the sandbox's /dev. */
const BASE_TMPFS = ["/tmp", "/dev"];
const UNUSABLE_TARGETS = ["/proc"];

export async function planMounts(request: MountPlanRequest): Promise<MountPlan> {
  const workdir = await resolveWorkdir(request);
  const steps: MountStep[] = request.hidden
    .filter((path) => !BASE_TMPFS.some((base) => isWithin(path, base)))
    .map((target) => ({ kind: "hide", target }));
  const candidates: Array<{ check: MountCheck; step: number; label: { option: string; path: string } }> = [];
  const mount = (option: string, shown: string, from: HostPath, target: string, readonly: boolean): void => {
    if (!readonly && isWithin(request.controlBase, from.real)) throw refused(option, shown, "covers-control-dir");
    candidates.push({ check: [target, from.dev, from.ino], step: steps.length, label: { option, path: shown } });
    steps.push({ kind: readonly ? "ro-bind" : "bind", source: from.real, target });
    for (const hidden of request.hidden) {
      if (isWithin(hidden, from.real)) steps.push({ kind: "hide", target: join(target, relative(from.real, hidden)) });
    }
  };
  for (const [index, bind] of request.binds.entries()) {
    const source = await resolveSource(`binds[${index}].source`, bind.source);
    const target = bind.target === undefined ? source.real : bind.target;
    if (!target.startsWith("/")) throw refused(`binds[${index}].target`, target, "relative-target");
    if (!(await targetUsable(resolve(target), source.isDirectory, steps))) {
      throw refused(`binds[${index}].target`, target, "target-unavailable");
    }
    mount(`binds[${index}].source`, bind.source, source, resolve(target), bind.readonly === true);
  }
  for (const [index, path] of request.writable.entries()) {
    const source = await resolveSource(`writable[${index}]`, path);
    mount(`writable[${index}]`, path, source, source.real, false);
  }
  mount("workdir", request.cwd, workdir, workdir.real, false);
  // A mount covered by a later one is out of reach inside, and cannot be checked: only the visible ones are.
  const visible = candidates
    .filter(({ check: [target], step }) => !steps.slice(step + 1).some((later) => isWithin(target, later.target)));
  return { cwd: workdir.real, steps, checks: visible.map(({ check }) => check), labels: visible.map(({ label }) => label) };
}

async function resolveWorkdir(request: MountPlanRequest): Promise<HostPath> {
  const workdir = await inspectHostPath(request.cwd);
  if (!workdir?.isDirectory) {
    throw new ExecProcessError({ code: "sandbox-workdir-missing", param: "workdir", cwd: request.cwd });
  }
  for (const root of request.allowedRoots) {
    const real = await inspectHostPath(resolve(root));
    if (real?.isDirectory && isWithin(workdir.real, real.real)) return workdir;
  }
  throw new ExecProcessError({
    code: "sandbox-workdir-outside", param: "workdir", cwd: request.cwd, roots: request.allowedRoots.map((root) => resolve(root)),
  });
}

/** A mount source as given: it must exist, and be its own real path. */
async function resolveSource(option: string, given: string): Promise<HostPath> {
  const found = await inspectHostPath(resolve(given));
  if (!found) throw refused(option, given, "missing");
  if (found.real !== resolve(given)) throw refused(option, given, "symlink");
  return found;
}

/**
 * Whether bubblewrap can mount at `target` after `steps`: inside a tmpfs or a writable mount it creates the mount
 * point; inside a read-only view (the host's root, a read-only bind) it must already exist, of the source's kind.
 */
async function targetUsable(target: string, directory: boolean, steps: readonly MountStep[]): Promise<boolean> {
  if (UNUSABLE_TARGETS.some((path) => isWithin(target, path)) || target === "/") return false;
  let hostPath = target;
  const covering = [...steps].reverse().find((step) => isWithin(target, step.target));
  if (covering) {
    if (covering.kind !== "ro-bind") return true;
    hostPath = join(covering.source, relative(covering.target, target));
  } else if (BASE_TMPFS.some((base) => isWithin(target, base))) {
    return true;
  }
  try {
    return (await stat(hostPath)).isDirectory() === directory;
  } catch {
    return false;
  }
}

function refused(option: string, path: string, problem: SandboxMountProblem): ExecProcessError {
  return new ExecProcessError({ code: "sandbox-mount-refused", ...(option === "workdir" ? { param: "workdir" } : {}), option, path, problem });
}
