// The bubblewrap command line for one sandboxed command: what is visible, what is writable, which namespaces.
import type { MountStep } from "./mount-plan.js";
import { SECCOMP_FD } from "./supervisor.js";

/** Size of each empty tmpfs that hides a host folder (the temporary directory, socket folders). */
export const HIDING_TMPFS_BYTES = 1024 * 1024;

export interface SandboxLayout {
  cwd: string;
  /** The mounts after the base view, in order (mount-plan.ts). */
  steps: readonly MountStep[];
  network: boolean;
  /** Size limit of each writable tmpfs of the base view: /tmp and /dev/shm. */
  tmpSizeBytes: number;
  /** A seccomp program is passed on SECCOMP_FD (without network: no unix sockets, seccomp-filter.ts). */
  seccomp: boolean;
}

/**
 * Arguments placed before the supervisor. The base view: the whole filesystem read-only; a private, size-limited
 * /tmp; bubblewrap's minimal /dev (read-only, with a size-limited /dev/shm; a terminal session's terminal appears as
 * /dev/console, the host's /dev/pts stays hidden); a /proc of the sandbox's own pid namespace. Then the planned
 * mounts (later mounts win) and the namespaces.
 *
 * The command has no capabilities, whoever runs the engine: a user namespace (`--unshare-user`) in which bubblewrap
 * drops them all (`--cap-drop ALL`, which matters when the engine runs as root) and that allows no further user
 * namespace (`--disable-userns`), so nothing inside can remount, unmount, mknod or gain capabilities again.
 *
 * No `--new-session`: the engine starts bubblewrap as the leader of a session of its own, either detached without
 * any controlling terminal (pipes) or on a fresh terminal of its own (pty: true), so there is no host terminal for
 * the command to push input into (TIOCSTI, CVE-2017-5226). `--new-session` would also take the terminal session
 * away from `pty: true` commands (no job control, no ^C) and move the command out of bubblewrap's session, which
 * is how the executor finds the processes inside to send SIGTERM to.
 */
export function bwrapArgs(layout: SandboxLayout): string[] {
  const size = String(layout.tmpSizeBytes);
  const args = [
    "--ro-bind", "/", "/",
    "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm",
    "--proc", "/proc",
    "--size", size, "--tmpfs", "/tmp",
  ];
  for (const step of layout.steps) {
    if (step.kind === "hide") args.push("--size", String(HIDING_TMPFS_BYTES), "--tmpfs", step.target);
    else args.push(step.kind === "ro-bind" ? "--ro-bind" : "--bind", step.source, step.target);
  }
  // After every mount point under /dev was created; not recursive, so /dev/shm and the terminal stay as they are.
  args.push("--remount-ro", "/dev");
  args.push("--chdir", layout.cwd);
  args.push("--unshare-user", "--disable-userns", "--cap-drop", "ALL");
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent");
  if (!layout.network) args.push("--unshare-net");
  if (layout.seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--");
  return args;
}
