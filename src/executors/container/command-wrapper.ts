// The shell text every command runs under inside its container (issue 21). The Docker API cannot signal an exec
// and reports a signal death as exit code 128+N, so a POSIX-sh wrapper (no bash, setsid or Node needed) reports:
// - at the start, the frame `<mark><marker>:<pid><mark>` on stdout: the exec is a session and process-group leader
//   (runc makes it one), so that pid names the group and the session the kill script signals;
// - at the end, only when the status is over 128 (a signal or a code, which Docker cannot tell apart), a status file
//   in STATUS_DIR (a small tmpfs of the container's own) that the executor reads with a second exec and removes.
// A shell reports a foreground child's signal death ("Killed", "Terminated") on its own stderr; the wrapper's stderr
// goes to a file of its own while the command keeps the real one, so that report says "signal" without ever showing
// up in the output. SIGINT (which shells do not report) is seen by the wrapper's own trap: a terminal's ^C reaches
// the whole foreground group. The wrapper traps the terminating signals, so it outlives a group SIGTERM to write the
// status; a trapped signal is reset to its default in the command. The memory cgroup's oom_kill counter (v2 or v1)
// before and after tells an out-of-memory kill from another SIGKILL.
import { randomBytes } from "node:crypto";

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
  "printf '\\036%s:%s\\036' \"$m\" \"$$\"",
  OOM_COUNT,
  "oom; a=$c; g=",
  "trap 'g=15' TERM; trap 'g=2' INT; trap 'g=1' HUP; trap 'g=3' QUIT",
  'cd -- "$d" || exit 1',
  'exec 3>&2 2>"$f.err"',
  // A subshell that becomes the command's shell: the redirection is its own, not the wrapper's (a shell keeps a
  // simple command's redirections in place while it waits, and would print its report through them).
  '(exec 2>&3 3>&-; exec /bin/sh -c "$1")',
  "s=$?",
  'if [ "$s" -gt 128 ]; then e=0; [ -s "$f.err" ] && e=1; oom; printf \'%s %s %s %s\\n\' "$s" "${g:-0}" "$e" "$((c - a))" >"$f"; fi',
  'rm -f -- "$f.err"',
  'exit "$s"',
].join("\n");

export function wrapperCommand(marker: string, workdir: string, pty: boolean, command: string): string[] {
  return ["/bin/sh", "-c", WRAPPER, "sh", marker, workdir, pty ? "pty" : "pipe", command];
}

/** What the kill script prints once it ran: without it, the exec never started (pidsLimit reached, engine gone). */
export const KILL_DONE = "ok";

/**
 * Every command's exec carries `SESSION_MARKER_ENV=<its marker>`, as a local command carries its session marker: a
 * process that left the command's session (setsid) still has it in /proc/<pid>/environ, where the kill finds it.
 */
export const SESSION_MARKER_ENV = "EXEC_PROCESS_SESSION";

/**
 * Signals every process group of the command's session (its own and those its jobs made, PTY-08), found in /proc,
 * each once, then the command's group, then every process whose environment holds the command's marker (one that
 * called setsid; the image's grep finds them, and without a grep only the session is reached). The marker is hex, so
 * a plain pattern matches it exactly; busybox's `grep -F` stops at the first NUL of an environ file.
 * `/bin/sh -c KILL_SCRIPT sh <pid> <TERM|KILL> <marker>`.
 */
export const KILL_SCRIPT = [
  's=$1; n=$2; m=$3; gs=',
  'for p in /proc/[0-9]*/stat; do l=; read -r l <"$p" 2>/dev/null || continue; l=${l##*) }; set -- $l',
  '  [ "$4" = "$s" ] && [ "$3" != "$s" ] && case " $gs " in *" $3 "*) ;; *) gs="$gs $3" ;; esac',
  'done',
  'for g in $gs; do kill -s "$n" -- "-$g" 2>/dev/null; done',
  'kill -s "$n" -- "-$s" 2>/dev/null',
  `for f in $(grep -l "${SESSION_MARKER_ENV}=$m" /proc/[0-9]*/environ 2>/dev/null); do p=\${f#/proc/}; kill -s "$n" "\${p%/environ}" 2>/dev/null; done`,
  'echo ok',
].join("\n");

export function killCommand(pid: number, signal: "SIGTERM" | "SIGKILL", marker: string): string[] {
  return ["/bin/sh", "-c", KILL_SCRIPT, "sh", String(pid), signal.slice(3), marker];
}

/** Prints and removes the status file. */
export function statusCommand(marker: string): string[] {
  const file = statusPath(marker);
  return ["/bin/sh", "-c", 'cat -- "$1" 2>/dev/null; rm -f -- "$1" "$1.err"', "sh", file];
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
 * The outcome from the exec's exit code and, for codes over 128, the status file's line (`<status> <trapped signal>
 * <shell reported a signal: 0|1> <oom kills during the command>`). No line: the wrapper itself was killed (SIGKILL
 * to the group) before it could write one, so the code is 128 + that signal.
 */
export function parseOutcome(exitCode: number | null, statusLine: string | undefined): CommandOutcome {
  if (exitCode === null) return { code: null, signal: null, outOfMemory: false };
  if (exitCode <= 128) return { code: exitCode, signal: null, outOfMemory: false };
  const fields = /^(\d+) (\d+) ([01]) (-?\d+)\s*$/.exec(statusLine ?? "");
  const asSignal = (status: number): CommandOutcome["signal"] => SIGNAL_NAMES[status - 128] ?? null;
  if (!fields) return asSignal(exitCode) ? { code: null, signal: asSignal(exitCode), outOfMemory: false } : { code: exitCode, signal: null, outOfMemory: false };
  const status = Number(fields[1]);
  const signalled = fields[3] === "1" || Number(fields[2]) === status - 128;
  const signal = signalled ? asSignal(status) : null;
  return signal
    ? { code: null, signal, outOfMemory: signal === "SIGKILL" && Number(fields[4]) > 0 }
    : { code: status, signal: null, outOfMemory: false };
}
