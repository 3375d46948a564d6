// The shell text sent to a node: the command line of a command's channel, and the lines its control channel runs
// (kill, environment files). Values of the environment never appear on a command line (issue 20).
import { randomBytes } from "node:crypto";
import * as messages from "../../engine/messages.js";

/** Opens and closes the frames the remote shell prints around its own reports (pid, control acknowledgements). */
export const FRAME_MARK = "\u001e";
const PRINTF_MARK = "\\036";

/** POSIX single quoting: safe for any text, the command is never parsed or rewritten (EXEC-28). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A random per-command marker: the login shell's startup output cannot contain or forge it. */
export function newMarker(): string {
  return randomBytes(16).toString("hex");
}

export interface RemoteCommand {
  command: string;
  cwd: string;
  shell: string;
  marker: string;
  pty: boolean;
  /** The node's file that holds the command's environment (envFileLine), or undefined when there is none. */
  envFile: string | undefined;
}

/**
 * sshd makes the login shell a session and process-group leader (setsid); `exec` keeps its pid for the command's
 * shell, so the printed pid is the group that kill signals. First the frame `<mark><marker>:<pid>:<start time><mark>`
 * on stdout (start time: field 22 of /proc/<pid>/stat where it exists; it tells a reused pid apart) and, without a
 * terminal, `<mark><marker><mark>` on stderr: whatever the login shell's startup printed before them is dropped.
 * Then the environment file (it removes itself first), the workdir, OPENCLAW_SHELL (EXEC-15), and the command.
 */
export function remoteCommandLine(remote: RemoteCommand): string {
  const marker = shellQuote(remote.marker);
  const lines = [
    "s=; [ -r /proc/$$/stat ] && read -r s </proc/$$/stat; s=${s##*) }; set -- $s",
    `printf '${PRINTF_MARK}%s:%s:%s${PRINTF_MARK}' ${marker} "$$" "\${20}"`,
  ];
  if (!remote.pty) lines.push(`printf '${PRINTF_MARK}%s${PRINTF_MARK}' ${marker} >&2`);
  if (remote.envFile !== undefined) {
    const file = shellQuote(remote.envFile);
    lines.push(`[ -f ${file} ] || { ${printError(messages.NODE_ENV_FILE_MISSING)}; exit 1; }`, `. ${file}`);
  }
  lines.push(
    `cd -- ${shellQuote(remote.cwd)} 2>/dev/null || { ${printError(messages.nodeWorkdirMissing(remote.cwd))}; exit 1; }`,
    "OPENCLAW_SHELL=exec; export OPENCLAW_SHELL",
    `exec ${shellQuote(remote.shell)} -c ${shellQuote(remote.command)}`,
  );
  return lines.join("; ");
}

const printError = (text: string): string => `printf '%s\\n' ${shellQuote(text)} >&2`;

/** The pid and start time of a frame's fields (`:<pid>:<start time>`), or undefined when they are not that. */
export function parseStartFrame(fields: string): { pid: number; startTime: string | undefined } | undefined {
  const match = /^:(\d+):(\d*)$/.exec(fields);
  if (!match) return undefined;
  const pid = Number(match[1]);
  return pid > 0 ? { pid, startTime: match[2] || undefined } : undefined;
}

const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables a command gets from the executor, as `export` lines; non-portable names cannot be set. */
export function envScript(vars: Record<string, string>): string {
  return Object.entries(vars)
    .filter(([key]) => PORTABLE_NAME.test(key))
    .map(([key, value]) => `${key}=${shellQuote(value)}; export ${key}\n`)
    .join("");
}

/** Where a command's environment file goes: `dir` is the node's temporary directory (reported by control). */
export const envFilePath = (dir: string, marker: string): string => `${dir.replace(/\/+$/, "") || ""}/.exec-process-env-${marker}`;

/**
 * Control line: creates `path` (never an existing file or link: noclobber; mode 0600 from the control shell's
 * umask) holding a line that removes the file, then `script`. printf is a shell builtin: the values stay in the
 * control shell, off every command line. Its status is 0 when the file was written.
 */
export function envFileLine(path: string, script: string): string {
  const file = shellQuote(path);
  return `set -C; printf '%s' ${shellQuote(`rm -f -- ${file}\n${script}`)} >${file}; s=$?; set +C; [ "$s" = 0 ]`;
}

export const removeFileLine = (path: string): string => `rm -f -- ${shellQuote(path)}`;

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

/**
 * Kills the session of a command whose connection was lost (SIGKILL), unless its pid now names another process:
 * a process with that pid but another start time. A pid whose process is gone cannot have been reused as a group
 * or session id, so its remaining group members are still the command's.
 */
export function orphanKillLine(pid: number, startTime: string | undefined): string {
  const kill = remoteKillLine(pid, "SIGKILL");
  if (startTime === undefined) return kill;
  return `s=; [ -r /proc/${pid}/stat ] && read -r s </proc/${pid}/stat; s=\${s##*) }; set -- $s; ` +
    `if [ -z "$s" ] || [ "\${20}" = ${startTime} ]; then ${kill}; fi; true`;
}
