// The supervisor: a small script run by this Node binary (visible through the read-only root) as the sandbox's
// command. bubblewrap turns a signal death of its command into exit code 128+N, so the supervisor runs the shell and
// reports exactly how it ended over the control channel (control-channel.ts), after checking that every mount is
// the directory the host checked (mount-plan.ts): a path swapped for a symbolic link between the host's check and
// bubblewrap's mount is refused before the shell runs.

/** One mount to verify inside: its path in the sandbox and the device and inode numbers the host found. */
export type MountCheck = [target: string, dev: string, ino: string];

// fd 3 is the control FIFO, opened by the launch wrapper without close-on-exec: the supervisor re-opens it through
// /proc (Node opens every file close-on-exec) and closes fd 3, so the shell and the command never inherit it.
// Each report is a line of its own (a newline before it too, so a partial line the command wrote cannot swallow it).
// It ignores the terminating signals that reach the whole group, so it outlives the shell and reports its end.
// NODE_OPTIONS is the command's, not the supervisor's: it is handed over as an argument and restored for the shell.
const SUPERVISOR = `
const [checks, nodeOptions, shell, ...args] = process.argv.slice(1);
const fs = require("node:fs");
const { spawn } = require("node:child_process");
let channel = -1;
try { channel = fs.openSync("/proc/self/fd/3", fs.constants.O_WRONLY | fs.constants.O_NONBLOCK); } catch {}
try { fs.closeSync(3); } catch {}
const report = (value) => { if (channel >= 0) try { fs.writeSync(channel, "\\n" + JSON.stringify(value) + "\\n"); } catch {} };
for (const name of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]) process.on(name, () => {});
JSON.parse(checks).forEach(([path, dev, ino], index) => {
  let stat;
  try { stat = fs.statSync(path, { bigint: true }); } catch {}
  if (!stat || String(stat.dev) !== dev || String(stat.ino) !== ino) {
    report({ refused: index });
    process.exit(125);
  }
});
const env = { ...process.env };
if (nodeOptions !== "") env.NODE_OPTIONS = nodeOptions.slice(1);
const child = spawn(shell, args, { stdio: "inherit", env });
child.on("error", (error) => { report({ error: error.message }); process.exit(127); });
if (child.pid !== undefined) report({ started: true });
child.on("exit", (code, signal) => {
  report({ exit: { code, signal } });
  process.exit(code === null ? 128 : code);
});`;

/** The supervisor's command line inside the sandbox, before the shell and its arguments. */
export function supervisorArgs(checks: readonly MountCheck[], nodeOptions: string | undefined): string[] {
  return [process.execPath, "-e", SUPERVISOR, JSON.stringify(checks), nodeOptions === undefined ? "" : `=${nodeOptions}`];
}

// The launch wrapper runs on the host, before bubblewrap: it opens the control FIFO as fd 3 and the seccomp program
// as fd 4 (node-pty cannot pass extra descriptors), then becomes bubblewrap (same pid: the session leader the engine
// signals). `3>` waits for a reader, and the host's reading end is open before the wrapper starts. `command exec`: a
// failed redirection of the special built-in `exec` would end a POSIX sh at once with status 2, not 125.
const LAUNCH_WRAPPER = 'command exec 3>"$0" || exit 125; if [ -n "$1" ]; then command exec 4<"$1" || exit 125; fi; shift; exec "$@"';

/** File descriptor bubblewrap reads the seccomp program from (`--seccomp 4`). */
export const SECCOMP_FD = 4;
/** The shell that runs the launch wrapper. */
export const LAUNCH_SHELL = "/bin/sh";

/** Arguments of LAUNCH_SHELL: the wrapper, its two paths, then bubblewrap's command line. */
export function launchArgs(fifoPath: string, seccompPath: string | undefined, bwrapCommand: readonly string[]): string[] {
  return ["-c", LAUNCH_WRAPPER, fifoPath, seccompPath ?? "", ...bwrapCommand];
}
