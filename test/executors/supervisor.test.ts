// src/executors/sandbox/supervisor.ts, outside bubblewrap: the launch wrapper opens the control FIFO as fd 3 and
// the seccomp program as fd 4, then becomes its command; the supervisor (run by plain node with a FIFO as fd 3)
// checks the mounts, runs the shell and writes its reports, each on a line of its own.
import { spawn, execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, mkdirSync, openSync, statSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  LAUNCH_SHELL, launchArgs, SECCOMP_FD, supervisorArgs, supervisorLaunch, supervisorProgram, type MountCheck, type SupervisorProgram,
} from "../../src/executors/sandbox/supervisor.js";
import { cleanUp, markerSeconds, onCleanUp, scratchDir, sleepers, waitUntil } from "./helpers.js";

afterEach(cleanUp);

const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LANG: "C.UTF-8" };

/** A control FIFO in a scratch folder with its reading end open (non-blocking, as the host opens it). */
function controlFifo(): { path: string; text(): string; ended: Promise<string> } {
  const path = join(scratchDir("supervisor-"), "control");
  execFileSync("mkfifo", ["-m", "600", path]);
  const socket = new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
  onCleanUp(() => void socket.destroy());
  let text = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const ended = new Promise<string>((resolve) => socket.once("close", () => resolve(text)));
  return { path, text: () => text, ended };
}

interface Run { pid: number; stdout(): string; stderr(): string; exited: Promise<{ code: number | null; signal: string | null }> }

/** Starts `file` as the leader of a process group of its own, fd 3 on `fd3` when given; SIGKILLed at clean-up. */
function start(file: string, args: readonly string[], options: { fd3?: string; cwd?: string; env?: Record<string, string> } = {}): Run {
  const fd3 = options.fd3 === undefined ? "ignore" : openSync(options.fd3, constants.O_WRONLY);
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe", fd3], env: options.env ?? env, cwd: options.cwd ?? "/", detached: true });
  if (typeof fd3 === "number") closeSync(fd3); // the child's copy is the only writer now
  const { pid, stdout: out, stderr: err } = child;
  if (pid === undefined || !out || !err) throw new Error(`${file} did not start`);
  let stdout = "";
  let stderr = "";
  out.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  err.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  void exited.then(() => (done = true));
  onCleanUp(() => {
    if (done) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  });
  return { pid, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Both supervisors: Perl where this host has it (as the executor picks it), and Node. */
const PERL = ["/usr/bin/perl", "/bin/perl"].find((path) => existsSync(path));
const PROGRAMS: SupervisorProgram[] = [{ kind: "node" }, ...(PERL ? [{ kind: "perl" as const, perlPath: PERL }] : [])];

/**
 * The supervisor as bubblewrap would start it, with `/bin/sh -c command` as the shell and the FIFO as fd 3, in the
 * environment `extraEnv` adds to (handed over to the shell as the executor hands it).
 */
function supervise(program: SupervisorProgram, fifo: string, command: string, options: {
  checks?: MountCheck[]; extraEnv?: Record<string, string>; shell?: string; cwd?: string;
} = {}): Run {
  const launch = supervisorLaunch(program, options.checks ?? [], { ...env, ...options.extraEnv });
  const [file = "", ...args] = launch.args;
  return start(file, [...args, options.shell ?? "/bin/sh", "-c", command], {
    fd3: fifo, env: launch.env, ...(options.cwd ? { cwd: options.cwd } : {}),
  });
}

function checkOf(path: string): MountCheck {
  const stat = statSync(path, { bigint: true });
  return [path, String(stat.dev), String(stat.ino)];
}

const nextNumber = (value: string): string => String(BigInt(value) + 1n);

const line = (report: object): string => `\n${JSON.stringify(report)}\n`;

describe("supervisorArgs", () => {
  it("runs this node binary on the script, then the mount checks as JSON and the command's NODE_OPTIONS behind a marker", () => {
    const args = supervisorArgs([["/work", "1", "2"]], "--max-old-space-size=64");
    expect(args).toHaveLength(5);
    expect([args[0], args[1], args[3], args[4]]).toEqual([process.execPath, "-e", '[["/work","1","2"]]', "=--max-old-space-size=64"]);
    expect(supervisorArgs([], undefined).slice(3)).toEqual(["[]", ""]);
    expect(supervisorArgs([], "").slice(3)).toEqual(["[]", "="]);
  });
});

describe("supervisorLaunch and supervisorProgram", () => {
  it("gives Perl the checks and the variables that steer its start as arguments, and leaves those out of its environment", () => {
    const launch = supervisorLaunch({ kind: "perl", perlPath: "/usr/bin/perl" }, [["/work", "1", "2"]], {
      PATH: "/bin", PERL5OPT: "-Mevil", PERL5LIB: "/w", NODE_OPTIONS: "--x",
    });
    expect(launch.args[0]).toBe("/usr/bin/perl");
    expect(launch.args.slice(3)).toEqual(["--", "2", "PERL5OPT", "-Mevil", "PERL5LIB", "/w", "1", "/work", "1", "2"]);
    expect(launch.env).toEqual({ PATH: "/bin", NODE_OPTIONS: "--x" });
  });

  it("gives Node the checks as JSON and NODE_OPTIONS behind a marker, and leaves NODE_OPTIONS out of its environment", () => {
    const launch = supervisorLaunch({ kind: "node" }, [], { PATH: "/bin", NODE_OPTIONS: "--x", PERL5OPT: "-w" });
    expect(launch.args).toEqual(supervisorArgs([], "--x"));
    expect(launch.env).toEqual({ PATH: "/bin", PERL5OPT: "-w" });
  });

  it("picks Perl only at an absolute path and on x64 or arm64", () => {
    expect(supervisorProgram("/usr/bin/perl", "x64")).toEqual({ kind: "perl", perlPath: "/usr/bin/perl" });
    expect(supervisorProgram("/usr/bin/perl", "arm64")).toEqual({ kind: "perl", perlPath: "/usr/bin/perl" });
    expect(supervisorProgram("/usr/bin/perl", "mips")).toEqual({ kind: "node" });
    expect(supervisorProgram("perl", "x64")).toEqual({ kind: "node" });
    expect(supervisorProgram(undefined, "x64")).toEqual({ kind: "node" });
  });
});

describe.each(PROGRAMS)("the supervisor ($kind)", (program) => {
  it("runs the shell and reports its start and its exit code, each on a line of its own, and exits with that code", async () => {
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, "echo out; exit 3");
    expect(await run.exited).toEqual({ code: 3, signal: null });
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: 3, signal: null } }));
    expect(run.stdout()).toBe("out\n");
  });

  it("reports a shell that died of a signal as that signal, and exits with 128", async () => {
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, "kill -s KILL $$");
    expect(await run.exited).toEqual({ code: 128, signal: null });
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: null, signal: "SIGKILL" } }));
  });

  it.each(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"] as const)(
    "outlives a %s sent to the whole group and reports how the shell ended", async (signal) => {
      const fifo = controlFifo();
      const marker = markerSeconds();
      const run = supervise(program, fifo.path, `sleep ${marker}`, { cwd: scratchDir("supervisor-cwd-") }); // a core dump would land there
      expect(await waitUntil(() => fifo.text().includes('"started"'), 10_000)).toBe(true);
      // The shell reports its start before it has become sleep: a signal in between can be lost in dash's fork
      // (seen once on a loaded CI machine), so the signal goes once sleep runs.
      expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
      process.kill(-run.pid, signal);
      expect(await run.exited).toEqual({ code: 128, signal: null });
      expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: null, signal } }));
    },
  );

  // Not for the Node supervisor, the fallback: it can report only once spawn returned, after the shell's exec.
  it.runIf(program.kind === "perl")("reports the start before anything the command writes to the channel through /proc reaches it", async () => {
    const fifo = controlFifo();
    // Builtins only, so the write comes as early as a command can make it.
    const run = supervise(program, fifo.path, `for fd in /proc/$PPID/fd/*; do [ "$fd" -ef "${fifo.path}" ] && printf 'junk\\n' > "$fd"; done; exit 6`);
    expect(await run.exited).toEqual({ code: 6, signal: null });
    expect(await fifo.ended).toBe(line({ started: true }) + "junk\n" + line({ exit: { code: 6, signal: null } }));
  });

  it("runs the shell when every mount is the directory the host checked", async () => {
    const dir = scratchDir("supervisor-mounts-");
    mkdirSync(join(dir, "a"));
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, "exit 0", { checks: [checkOf(dir), checkOf(join(dir, "a"))] });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: 0, signal: null } }));
  });

  it.each([
    ["another inode", 1, (dir: string): MountCheck[] => {
      const [path, dev, ino] = checkOf(join(dir, "a"));
      return [checkOf(dir), [path, dev, nextNumber(ino)]];
    }],
    ["another device", 0, (dir: string): MountCheck[] => {
      const [path, dev, ino] = checkOf(dir);
      return [[path, nextNumber(dev), ino], checkOf(join(dir, "a"))];
    }],
    ["a path that is gone", 0, (dir: string): MountCheck[] => {
      const [, dev, ino] = checkOf(dir);
      return [[join(dir, "gone"), dev, ino]];
    }],
  ])("refuses to run the shell when a mount has %s, naming the check by its index", async (_title, refused, checks) => {
    const dir = scratchDir("supervisor-mounts-");
    mkdirSync(join(dir, "a"));
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, `touch ${join(dir, "ran")}`, { checks: checks(dir) });
    expect(await run.exited).toEqual({ code: 125, signal: null });
    expect(await fifo.ended).toBe(line({ refused }));
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });

  it("reports a shell that cannot start, and exits with 127", async () => {
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, "true", { shell: "/nonexistent/sh" });
    expect(await run.exited).toEqual({ code: 127, signal: null });
    expect(await fifo.ended).toBe(line({ error: "spawn /nonexistent/sh ENOENT" }));
  });

  it.each([
    [undefined, "unset"],
    ["", "set:"],
    ["--max-old-space-size=64", "set:--max-old-space-size=64"],
  ])("hands the command's NODE_OPTIONS (%j) back to the shell", async (nodeOptions, seen) => {
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, 'if [ -n "${NODE_OPTIONS+x}" ]; then echo "set:$NODE_OPTIONS"; else echo unset; fi', {
      ...(nodeOptions !== undefined ? { extraEnv: { NODE_OPTIONS: nodeOptions } } : {}),
    });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toBe(`${seen}\n`);
  });

  it("hands the command's PERL5OPT and PERL5LIB back to the shell, and they do not reach the supervisor's start", async () => {
    const fifo = controlFifo();
    // Perl would stop at once on this switch, before it ran the shell, if the supervisor's own start read it.
    const run = supervise(program, fifo.path, 'echo "$PERL5OPT|$PERL5LIB"', {
      extraEnv: { PERL5OPT: "-MNoSuchModuleForTheSupervisor", PERL5LIB: "/nonexistent" },
    });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toBe("-MNoSuchModuleForTheSupervisor|/nonexistent\n");
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: 0, signal: null } }));
  });

  it("moves the control channel off fd 3 and does not pass it on to the shell", async () => {
    const fifo = controlFifo();
    const run = supervise(program, fifo.path, [
      'for fd in /proc/$$/fd/*; do readlink "$fd"; done',
      "[ -e /proc/$$/fd/3 ] && echo shell-fd3-open || echo shell-fd3-closed",
      "[ -e /proc/$PPID/fd/3 ] && echo supervisor-fd3-open || echo supervisor-fd3-closed",
    ].join("; "));
    expect(await run.exited).toEqual({ code: 0, signal: null });
    const lines = run.stdout().trim().split("\n");
    expect(lines.slice(-2)).toEqual(["shell-fd3-closed", "supervisor-fd3-closed"]);
    expect(lines.filter((target) => target.includes(fifo.path))).toEqual([]);
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: 0, signal: null } }));
  });
});

describe("the launch wrapper", () => {
  it("takes the FIFO's and the seccomp program's paths, then bubblewrap's command line", () => {
    const args = launchArgs("/tmp/s/control", "/tmp/s/seccomp.bpf", ["/usr/bin/bwrap", "--", "node"]);
    expect(args[0]).toBe("-c");
    expect(args.slice(2)).toEqual(["/tmp/s/control", "/tmp/s/seccomp.bpf", "/usr/bin/bwrap", "--", "node"]);
    expect(launchArgs("/tmp/s/control", undefined, ["/usr/bin/bwrap"]).slice(2)).toEqual(["/tmp/s/control", "", "/usr/bin/bwrap"]);
    expect(LAUNCH_SHELL).toBe("/bin/sh");
  });

  it(`becomes its command (same pid) with the FIFO on fd 3 and the seccomp program on fd ${SECCOMP_FD}`, async () => {
    const fifo = controlFifo();
    const seccomp = join(scratchDir("supervisor-seccomp-"), "seccomp.bpf");
    writeFileSync(seccomp, "program");
    const run = start(LAUNCH_SHELL, launchArgs(fifo.path, seccomp, [
      "/bin/sh", "-c", `readlink /proc/$$/fd/3 /proc/$$/fd/${SECCOMP_FD}; cat <&${SECCOMP_FD}; echo; echo $$`,
    ]));
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout().split("\n")).toEqual([fifo.path, seccomp, "program", String(run.pid), ""]);
  });

  it(`opens nothing on fd ${SECCOMP_FD} without a seccomp program`, async () => {
    const fifo = controlFifo();
    const run = start(LAUNCH_SHELL, launchArgs(fifo.path, undefined, [
      "/bin/sh", "-c", `readlink /proc/$$/fd/3; [ -e /proc/$$/fd/${SECCOMP_FD} ] && echo fd-open || echo fd-closed`,
    ]));
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toBe(`${fifo.path}\nfd-closed\n`);
  });

  it.each([
    ["the FIFO cannot be opened", "fifo"],
    ["the seccomp program cannot be opened", "seccomp"],
  ])("exits with 125 and runs nothing when %s", async (_title, missing) => {
    const dir = scratchDir("supervisor-launch-");
    const fifo = controlFifo();
    const run = start(LAUNCH_SHELL, launchArgs(
      missing === "fifo" ? join(dir, "gone", "control") : fifo.path,
      missing === "seccomp" ? join(dir, "gone.bpf") : undefined,
      ["/bin/sh", "-c", `touch ${join(dir, "ran")}`],
    ));
    expect(await run.exited).toEqual({ code: 125, signal: null });
    expect(run.stderr()).toContain(missing === "fifo" ? join(dir, "gone", "control") : join(dir, "gone.bpf"));
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });

  it("starts the supervisor with the channel it opened: the reports reach the host's end of the FIFO", async () => {
    const fifo = controlFifo();
    const run = start(LAUNCH_SHELL, [...launchArgs(fifo.path, undefined, [...supervisorArgs([], undefined), "/bin/sh", "-c"]), "echo hi; exit 4"]);
    expect(await run.exited).toEqual({ code: 4, signal: null });
    expect(run.stdout()).toBe("hi\n");
    expect(await fifo.ended).toBe(line({ started: true }) + line({ exit: { code: 4, signal: null } }));
  });
});
