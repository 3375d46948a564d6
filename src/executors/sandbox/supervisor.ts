// The supervisor: a small script run by Perl or this Node binary (visible through the read-only root) as the
// sandbox's command. bubblewrap turns a signal death of its command into exit code 128+N, so the supervisor runs the shell and
// reports exactly how it ended over the control channel (control-channel.ts), after checking that every mount is
// the directory the host checked (mount-plan.ts): a path swapped for a symbolic link between the host's check and
// bubblewrap's mount is refused before the shell runs.
import { isAbsolute } from "node:path";

/** One mount to verify inside: its path in the sandbox and the device and inode numbers the host found. */
export type MountCheck = [target: string, dev: string, ino: string];

// fd 3 is the control FIFO, opened by the launch wrapper without close-on-exec: the supervisor re-opens it through
// /proc (Node opens every file close-on-exec) and closes fd 3, so the shell and the command never inherit it.
// Each report is a line of its own (a newline before it too, so a partial line the command wrote cannot swallow it).
// It ignores the terminating signals that reach the whole group, so it outlives the shell and reports its end.
// NODE_OPTIONS is the command's, not the supervisor's: it is handed over as an argument and restored for the shell.
// The start is reported once spawn returns, after the shell's exec (Node has no hook between fork and exec): a command
// that writes to the channel through /proc at once can get there first (the Perl supervisor below cannot).
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

// The same supervisor in Perl, where the host has it: a start costs about 2 ms of CPU against Node's 60, half of what
// a sandboxed command cost to start (issue 36). It uses no module (a module path or switch from the command's
// environment cannot reach it: the variables that steer perl's start are handed over as arguments, like
// NODE_OPTIONS above, and restored for the shell), so the numbers of Linux on x64 and arm64 are written out:
// O_WRONLY|O_NONBLOCK, the signal names, EINTR. The forked child reports the start itself, after it gave the signals
// back their default action and right before its exec: a signal the host held until then ends it as it would end
// the shell, and the report reaches the host before anything the command writes (a command that floods the channel
// through /proc cannot make its own start look like a failed setup). A shell that is not an executable file is
// refused before the fork; a pipe that closes on exec carries the errno of an exec that failed all the same, its
// name looked up then (Errno). The pipe is made before fd 3 is closed, so that nothing takes fd 3 again.
const PERL_SUPERVISOR = String.raw`
my ($handed, @rest) = @ARGV;
my %restore = splice(@rest, 0, 2 * $handed);
my $count = shift @rest;
my @checks = splice(@rest, 0, 3 * $count);
my ($shell, @args) = @rest;
my $channel;
undef $channel unless sysopen($channel, "/proc/self/fd/3", 1 | 2048);
my $piped = pipe(my $execRead, my $execWrite);
if (open(my $three, ">&=", 3)) { close($three); }
$SIG{PIPE} = "IGNORE";
sub quote { my ($text) = @_; $text =~ s/(["\\])/\\$1/g; $text =~ s/([\x00-\x1f])/sprintf("\\u%04x", ord($1))/ge; return "\"$text\""; }
sub report { syswrite($channel, "\n$_[0]\n") if $channel; }
$SIG{$_} = sub {} for qw(TERM INT HUP QUIT);
for my $index (0 .. $count - 1) {
  my ($path, $dev, $ino) = @checks[3 * $index .. 3 * $index + 2];
  my @stat = stat($path);
  if (!@stat || "$stat[0]" ne $dev || "$stat[1]" ne $ino) { report("{\"refused\":$index}"); exit 125; }
}
$piped or do { report("{\"error\":\"pipe\"}"); exit 127; };
if (!-x $shell) { report("{\"error\":" . quote("spawn $shell " . (-e $shell ? "EACCES" : "ENOENT")) . "}"); exit 127; }
my $pid = fork();
if (!defined $pid) { report("{\"error\":" . quote("fork: $!") . "}"); exit 127; }
if ($pid == 0) {
  $SIG{$_} = "DEFAULT" for qw(TERM INT HUP QUIT PIPE);
  close($execRead);
  $ENV{$_} = $restore{$_} for keys %restore;
  report("{\"started\":true}");
  exec { $shell } $shell, @args;
  my $errno = $! + 0;
  require Errno;
  $! = $errno;
  my ($name) = grep { $!{$_} } keys %!;
  syswrite($execWrite, $name // "errno $errno");
  exit 127;
}
close($execWrite);
my ($failed, $read) = ("", 0);
do { $read = sysread($execRead, $failed, 256, length $failed); } while ((defined $read && $read > 0) || (!defined $read && $! == 4));
if ($failed ne "") { waitpid($pid, 0); report("{\"error\":" . quote("spawn $shell $failed") . "}"); exit 127; }
my @names = qw(0 HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS);
while (waitpid($pid, 0) == -1 && $! == 4) {}
my $signal = $? & 127;
my $name = $signal ? ($signal < @names ? "SIG$names[$signal]" : "SIG$signal") : undef;
report($signal ? "{\"exit\":{\"code\":null,\"signal\":\"$name\"}}" : "{\"exit\":{\"code\":" . ($? >> 8) . ",\"signal\":null}}");
exit($signal ? 128 : $? >> 8);`;

/** Variables that steer perl's start (switches, module paths, I/O layers): handed over, not left in its environment. */
const PERL_START_VARIABLE = /^PERL/;

/** The processor architectures whose numbers PERL_SUPERVISOR writes out. */
const PERL_SUPERVISOR_ARCHES = ["x64", "arm64"];

/** Which program supervises: Perl at `perlPath` when given (see perlSupervisorPath), else this Node binary. */
export type SupervisorProgram = { kind: "node" } | { kind: "perl"; perlPath: string };

/**
 * The supervisor's command line before the shell and its arguments, and the environment bubblewrap passes it: the
 * command's, without what would steer the supervisor's own start (handed over in the arguments instead).
 */
export function supervisorLaunch(
  program: SupervisorProgram, checks: readonly MountCheck[], env: Readonly<Record<string, string>>,
): { args: string[]; env: Record<string, string> } {
  if (program.kind === "node") {
    const { NODE_OPTIONS: nodeOptions, ...rest } = env;
    return { args: supervisorArgs(checks, nodeOptions), env: rest };
  }
  const kept: Record<string, string> = {};
  const handed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (PERL_START_VARIABLE.test(name)) handed.push(name, value);
    else kept[name] = value;
  }
  return {
    args: [program.perlPath, "-e", PERL_SUPERVISOR, "--", String(handed.length / 2), ...handed, String(checks.length), ...checks.flat()],
    env: kept,
  };
}

/** The supervisor this host can run: Perl when `perlPath` is an executable and the architecture is one it knows. */
export function supervisorProgram(perlPath: string | undefined, arch: string = process.arch): SupervisorProgram {
  const usable = perlPath !== undefined && isAbsolute(perlPath) && PERL_SUPERVISOR_ARCHES.includes(arch);
  return usable ? { kind: "perl", perlPath } : { kind: "node" };
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
