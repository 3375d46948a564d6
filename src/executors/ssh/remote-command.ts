// The command line sent to the remote login shell: report the process id, enter the workdir, set the prepared
// environment explicitly (sshd refuses most AcceptEnv), then exec the shell that runs the command text.
import * as messages from "../../engine/messages.js";

/** Frames the remote process id at the very start of the output, before any byte of the command. */
export const PID_MARK = "\u001e";

/** POSIX single quoting: safe for any text, the command is never parsed or rewritten (EXEC-28). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface RemoteCommand {
  command: string;
  cwd: string;
  env: Record<string, string>;
  shell: string;
  /** Keys left to the remote environment. */
  remoteEnvKeys: ReadonlySet<string>;
}

/**
 * sshd makes the login shell a session and process-group leader (setsid); `exec` keeps its pid for the command's
 * shell, so the printed pid is the group that kill signals. Non-portable variable names cannot be set by `env`
 * and are left out.
 */
export function remoteCommandLine(remote: RemoteCommand): string {
  const assignments = Object.entries(remote.env)
    .filter(([key]) => PORTABLE_NAME.test(key) && !remote.remoteEnvKeys.has(key))
    .map(([key, value]) => shellQuote(`${key}=${value}`));
  const cwd = shellQuote(remote.cwd);
  return [
    `printf '${PID_MARK}%s${PID_MARK}' "$$"`,
    `cd -- ${cwd} 2>/dev/null || { printf '%s\\n' ${shellQuote(messages.nodeWorkdirMissing(remote.cwd))} >&2; exit 1; }`,
    `exec env ${assignments.join(" ")} ${shellQuote(remote.shell)} -c ${shellQuote(remote.command)}`,
  ].join("; ");
}

/**
 * Signals the other process groups of the command's session first (the pid is also the session id; a terminal shell
 * puts jobs in groups of their own, PTY-08), found with ps where it exists, then the command's own group. Each
 * group gets the signal once and at once, as a local group kill does.
 */
export function remoteKillLine(pid: number, signal: "SIGTERM" | "SIGKILL"): string {
  const name = signal.slice(3);
  return `for g in $(ps -o pgid= -s ${pid} 2>/dev/null | sort -u); do [ "$g" = ${pid} ] || kill -s ${name} -- "-$g" 2>/dev/null; done; ` +
    `kill -s ${name} -- -${pid} 2>/dev/null; true`;
}
