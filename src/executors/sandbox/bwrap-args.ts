// The bubblewrap command line for one sandboxed command: what is visible, what is writable, which namespaces.
import { resolve } from "node:path";

/** An extra mount inside the sandbox. */
export interface SandboxBind {
  /** Path on the host. */
  source: string;
  /** Path inside the sandbox. @default source */
  target?: string;
  /** Mount read-only. @default false */
  readonly?: boolean;
}

export interface SandboxLayout {
  cwd: string;
  writable: readonly string[];
  binds: readonly SandboxBind[];
  network: boolean;
}

/**
 * Arguments placed before the shell: the whole filesystem read-only, a private /tmp, minimal /proc and /dev,
 * (a terminal session's terminal appears as /dev/console: the host's /dev/pts stays hidden), then the extra binds, the writable paths and the working directory read-write (later mounts win), new pid and
 * (unless `network`) network namespaces, and the sandbox ends when its parent does.
 */
export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const bind of layout.binds) {
    const source = resolve(bind.source);
    args.push(bind.readonly ? "--ro-bind" : "--bind", source, resolve(bind.target ?? source));
  }
  for (const path of layout.writable) args.push("--bind", resolve(path), resolve(path));
  args.push("--bind", layout.cwd, layout.cwd, "--chdir", layout.cwd);
  args.push("--unshare-pid", "--die-with-parent");
  if (!layout.network) args.push("--unshare-net");
  args.push("--");
  return args;
}
