// The shell text every command runs under inside its container (issues 21, 32). The Docker API cannot signal an exec
// and reports a signal death as exit code 128+N, so a POSIX-sh wrapper (no bash, setsid or Node needed) reports:
// - at the start, the frame `<mark><marker>:<pid>:<oom kills><mark>` on stdout, before the command runs (so the
//   command cannot forge it): the exec's pid, and the memory cgroup's oom_kill counter (v2 or v1) at the start;
// - at the end, only when the status is over 128 (a signal or a code, which Docker cannot tell apart), a status file
//   in STATUS_DIR (a small tmpfs of the container's own) that the executor reads with a second exec and removes. The
//   command can write that file too, so it can only misreport its own end; the read is bounded (STATUS_MAX_BYTES,
//   a regular file only, and the host stops reading past the bound), and the out-of-memory verdict comes from the
//   kernel's counter, read by that second exec, never from the file.
// A shell reports a foreground child's signal death ("Killed", "Terminated") on its own stderr; the wrapper's stderr
// goes to a file of its own while the command keeps the real one, so that report says "signal" without ever showing
// up in the output. SIGINT (which shells do not report) is seen by the wrapper's own trap: a terminal's ^C reaches
// the whole foreground group. The wrapper traps the terminating signals, so it outlives a TERM to write the status;
// a trapped signal is reset to its default in the command.
// Every command runs with a group id of its own (COMMAND_GID_*): without capabilities and with no_new_privs no
// process can change it, whatever it does to its session, environment or dumpability, so the kill finds them all.
import { randomBytes } from "node:crypto";
import { CONTAINER_LIMITS } from "./container-options.js";

export const FRAME_MARK = "\u001e";

/** A random per-command marker: it names the status file and the start frame, which output cannot forge by chance. */
export function newMarker(): string {
  return randomBytes(12).toString("hex");
}

/** A private tmpfs in every container, writable by its user (mode 1777: /tmp's mode comes from the image). */
export const STATUS_DIR = "/.exec-process";

/** Where the status of the command with `marker` is written inside the container. */
export const statusPath = (marker: string): string => `${STATUS_DIR}/${marker}`;

const OOM_COUNT = 'oom() { c=0; for x in /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control; do ' +
  '[ -r "$x" ] || continue; while read -r k v; do [ "$k" = oom_kill ] && c=$v; done <"$x"; break; done; }';

/** `/bin/sh -c WRAPPER sh <marker> <workdir> <pty|pipe> <command>`. Exit status: the command's; see the module comment. */
export const WRAPPER = [
  // A terminal gets its size once the exec runs (Docker before API 1.42 ignores ConsoleSize): the wrapper waits for
  // the executor's go line, sent after the resize. Its echo comes before the frame, and what precedes it is dropped.
  `m=$1; f=${STATUS_DIR}/$1; d=$2; [ "$3" = pty ] && read -r _; shift 3`,
  OOM_COUNT,
  "oom; g=",
  "printf '\\036%s:%s:%s\\036' \"$m\" \"$$\" \"$c\"",
  "trap 'g=15' TERM; trap 'g=2' INT; trap 'g=1' HUP; trap 'g=3' QUIT",
  'cd -- "$d" || exit 1',
  'exec 3>&2 2>"$f.err"',
  // A subshell that becomes the command's shell: the redirection is its own, not the wrapper's (a shell keeps a
  // simple command's redirections in place while it waits, and would print its report through them).
  '(exec 2>&3 3>&-; exec /bin/sh -c "$1")',
  "s=$?",
  'if [ "$s" -gt 128 ]; then e=0; [ -s "$f.err" ] && e=1; printf \'%s %s %s\\n\' "$s" "${g:-0}" "$e" >"$f"; fi',
  'rm -f -- "$f.err"',
  'exit "$s"',
].join("\n");

export function wrapperCommand(marker: string, workdir: string, pty: boolean, command: string): string[] {
  return ["/bin/sh", "-c", WRAPPER, "sh", marker, workdir, pty ? "pty" : "pipe", command];
}

/** What the kill script prints once it ran: without it, the exec never started (pidsLimit reached, engine gone). */
export const KILL_DONE = "ok";

/**
 * Signals every process whose real group id is the command's (found in /proc/<pid>/status, which stays readable for
 * a process that made itself non-dumpable). A SIGKILL pass is repeated while it still finds processes, up to three
 * times, for those forked while the first pass ran. Runs as the container's user, whose group is not in the range.
 * `/bin/sh -c KILL_SCRIPT sh <gid> <TERM|KILL>`.
 */
export const KILL_SCRIPT = [
  "g=$1; n=$2; r=1",
  "while :; do h=0",
  "  for p in /proc/[0-9]*/status; do",
  '    while read -r k a _; do [ "$k" = Gid: ] || continue',
  '      [ "$a" = "$g" ] && { q=${p#/proc/}; kill -s "$n" "${q%/status}" 2>/dev/null && h=1; }; break',
  '    done 2>/dev/null <"$p"',
  "  done",
  '  [ "$n" = KILL ] && [ "$h" = 1 ] && [ "$r" -lt 3 ] || break; r=$((r + 1))',
  "done",
  "echo ok",
].join("\n");

export function killCommand(gid: number, signal: "SIGTERM" | "SIGKILL"): string[] {
  return ["/bin/sh", "-c", KILL_SCRIPT, "sh", String(gid), signal.slice(3)];
}

/**
 * Prints the memory cgroup's oom_kill counter, then the status file's first line if it is a regular file (no link,
 * no device, no FIFO), at most its first STATUS_LINE_BYTES; removes the file. The host stops reading at
 * STATUS_MAX_BYTES whatever the exec prints (exec-call.ts).
 */
export function statusCommand(marker: string): string[] {
  const file = statusPath(marker);
  return ["/bin/sh", "-c", [
    OOM_COUNT, 'oom; echo "$c"',
    `[ -f "$1" ] && [ ! -h "$1" ] && head -c ${CONTAINER_LIMITS.STATUS_LINE_BYTES} -- "$1" 2>/dev/null`,
    'rm -f -- "$1" "$1.err"',
  ].join("\n"), "sh", file];
}

export interface CommandOutcome {
  code: number | null;
  signal: string | null;
  outOfMemory: boolean;
}

const SIGNAL_NAMES: Record<number, string> = {
  1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
  10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD",
  18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
  26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR", 31: "SIGSYS",
};

/**
 * The outcome from the exec's exit code, the oom_kill counter at the start (the frame's) and, for non-zero codes,
 * the status read (`<oom kills now>\n<status> <trapped signal> <shell reported a signal: 0|1>`). Any out-of-memory
 * kill during a command that failed makes it a SIGKILL for memory: a pipeline's member killed for memory fails the
 * command, as its own shell's would. Without a status line over 128, the wrapper itself was killed (SIGKILL to its
 * group) before it could write one, so the code is 128 + that signal.
 */
export function parseOutcome(exitCode: number | null, statusRead: string | undefined, oomAtStart?: number): CommandOutcome {
  if (exitCode === null) return { code: null, signal: null, outOfMemory: false };
  const [oomLine, statusLine] = (statusRead ?? "").split("\n", 2);
  const oomNow = /^\d+$/.test(oomLine ?? "") ? Number(oomLine) : undefined;
  if (exitCode !== 0 && oomAtStart !== undefined && oomNow !== undefined && oomNow > oomAtStart) {
    return { code: null, signal: "SIGKILL", outOfMemory: true };
  }
  if (exitCode <= 128) return { code: exitCode, signal: null, outOfMemory: false };
  const fields = /^(\d+) (\d+) ([01])\s*$/.exec(statusLine ?? "");
  const asSignal = (status: number): CommandOutcome["signal"] => SIGNAL_NAMES[status - 128] ?? null;
  if (!fields || Number(fields[1]) !== exitCode) {
    return asSignal(exitCode) ? { code: null, signal: asSignal(exitCode), outOfMemory: false } : { code: exitCode, signal: null, outOfMemory: false };
  }
  const signalled = fields[3] === "1" || Number(fields[2]) === exitCode - 128;
  const signal = signalled ? asSignal(exitCode) : null;
  return signal ? { code: null, signal, outOfMemory: false } : { code: exitCode, signal: null, outOfMemory: false };
}
