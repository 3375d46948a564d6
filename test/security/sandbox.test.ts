// Attacks on the bubblewrap sandbox executor (red-team findings 1–8 against e3f6737): each hostile command runs
// through a session engine with the real bubblewrap, then the host is checked (its files, processes, sockets,
// disk, memory and event loop). Nothing here assumes the engine runs as root: the same tests run as an
// unprivileged user (scripts/as-unprivileged.mjs). Skipped with the reason when bwrap is not installed.
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSandboxExecutor, createSessionEngine, ExecProcessError, type SandboxExecutorOptions, type LocalSessionEngine } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import {
  cleanUp, ctx, engineWith, killAll, markerSeconds, onCleanUp, processesWith, scratchDir, sessionIdOf, textOf, waitUntil,
} from "../executors/helpers.js";
import {
  bwrapThatFirst, entriesStartingWith, freeBytes, realBwrap, STALL_BOUND_MS, systemPython, unixServer, watchEventLoop,
} from "./helpers.js";

const describeSandbox = realBwrap ? describe : describe.skip;
if (!realBwrap) console.warn("sandbox security tests skipped: bwrap is not installed (apt-get install bubblewrap)");

afterEach(cleanUp);

const node = process.execPath;
const MiB = 1024 * 1024;

function sandboxEngine(options: SandboxExecutorOptions = {}) {
  const workdir = scratchDir("sec-work-");
  return { workdir, engine: engineWith("sandbox", createSandboxExecutor(options), workdir) };
}

async function run(command: string, options: SandboxExecutorOptions = {}, params: Record<string, unknown> = {}) {
  const { workdir, engine } = sandboxEngine(options);
  const result = await engine.exec({ host: "sandbox", command, ...params }, ctx);
  return { workdir, engine, result, text: textOf(result) };
}

/** Polls a running session until its output contains `needle` (or it ends, or 60 s pass); all output seen. */
async function outputUntil(engine: LocalSessionEngine, sessionId: string, needle: string): Promise<string> {
  let output = "";
  const deadline = Date.now() + 60_000;
  while (!output.includes(needle) && Date.now() < deadline) {
    const polled = await engine.process({ action: "poll", sessionId, timeout: 5_000 }, ctx);
    output += textOf(polled);
    if (polled.details.status !== "running") break;
  }
  return output;
}

/** The rejection of `call`, which must be an ExecProcessError. */
async function rejectionOf(call: Promise<unknown>): Promise<ExecProcessError> {
  const error = await call.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ExecProcessError);
  return error as ExecProcessError;
}

describeSandbox("finding 1: the command has no capabilities, whoever runs the engine", () => {
  it("has empty effective, permitted, bounding and ambient capability sets", async () => {
    const { text } = await run("grep -E '^Cap(Prm|Eff|Bnd|Amb):' /proc/self/status");
    expect(text.trim().split("\n")).toEqual([
      "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "CapAmb:\t0000000000000000",
    ]);
  });

  it("cannot remount the read-only root writable: a write through it never reaches the host", async () => {
    const outside = scratchDir("sec-outside-");
    const { text } = await run(`mount -o remount,bind,rw / 2>/dev/null; echo "mount=$?"; echo pwned > ${outside}/remounted; echo done`);
    expect(text).toMatch(/^mount=(?!0\n)\d+\n/);
    expect(text).toContain("done");
    expect(existsSync(join(outside, "remounted"))).toBe(false);
  });

  it("cannot unmount its /proc to uncover the host's processes", async () => {
    const { text } = await run("umount -l /proc 2>/dev/null; echo \"umount=$?\"; ls /proc | grep -c '^[0-9]'");
    const [umount, count] = text.trim().split("\n");
    expect(umount).not.toBe("umount=0");
    expect(Number(count)).toBeLessThanOrEqual(6);
  });

  it("cannot create device nodes", async () => {
    const { workdir, text } = await run("mknod ./null-device c 1 3 2>/dev/null; echo \"mknod=$?\"");
    expect(text.trim()).not.toBe("mknod=0");
    expect(text.trim()).toMatch(/^mknod=\d+$/);
    expect(existsSync(join(workdir, "null-device"))).toBe(false);
  });

  it("cannot create a user namespace to gain capabilities again", async () => {
    const { text } = await run("unshare --user --map-root-user true 2>/dev/null; echo \"unshare=$?\"");
    expect(text.trim()).toMatch(/^unshare=\d+$/);
    expect(text.trim()).not.toBe("unshare=0");
  });

  it("has no controlling terminal of the host's (pipes), and its own terminal only with pty: true", async () => {
    const pipes = await run("cut -d' ' -f7 /proc/self/stat; tty || true");
    expect(pipes.text.trim().split("\n")).toEqual(["0", "not a tty"]);
    const pty = await run("tty", {}, { pty: true });
    expect(pty.text.replaceAll("\r", "").trim()).toBe("/dev/console");
  });
});

describeSandbox("finding 2: the exit report cannot freeze or swell the host", () => {
  it.each([
    ["a FIFO", "mkfifo", 3],
    ["a link to /dev/zero", "ln -s /dev/zero", 4],
  ] as const)("%s where the exit report used to be stalls nothing and swells nothing on the host", async (_what, make, code) => {
    const oldDir = "/tmp/.sandbox-exit";
    const rssBefore = process.memoryUsage.rss();
    const loop = watchEventLoop();
    const { result } = await run(`mkdir -p ${oldDir}; rm -f ${oldDir}/status.json; ${make} ${oldDir}/status.json; exit ${code}`);
    const worstDelayMs = loop.stop();
    expect(result.details).toMatchObject({ exitCode: code, exitSignal: null });
    expect(worstDelayMs).toBeLessThan(STALL_BOUND_MS);
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(100 * MiB);
  });

  it("a command that floods the supervisor's channel through /proc stalls nothing and lies at most about itself", async () => {
    const rssBefore = process.memoryUsage.rss();
    const loop = watchEventLoop();
    const flood = 'for fd in /proc/$PPID/fd/*; do case "$(readlink "$fd")" in *control*) ' +
      '(head -c 200000000 /dev/zero > "$fd") 2>/dev/null; echo "flooded";; esac; done; exit 5';
    const { result, text } = await run(flood);
    const worstDelayMs = loop.stop();
    expect(text).toContain("flooded");
    expect(result.details).toMatchObject({ exitCode: 5, exitSignal: null });
    expect(worstDelayMs).toBeLessThan(STALL_BOUND_MS);
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(100 * MiB);
  });

  it("a command that writes a false exit report for itself only changes what is reported for itself", async () => {
    const lie = 'for fd in /proc/$PPID/fd/*; do case "$(readlink "$fd")" in *control*) ' +
      'printf \'{"exit":{"code":0,"signal":null}}\\n\' > "$fd";; esac; done; exit 9';
    const { result } = await run(lie);
    // The supervisor's own report comes last and wins: the lie is overwritten.
    expect(result.details).toMatchObject({ exitCode: 9, exitSignal: null });
  });

  it("a Perl module named by PERL5OPT and PERL5LIB of the engine's environment never runs in the supervisor: only the shell sees them", async () => {
    // The engine refuses them as a call's env overrides (the block list), so they come from the environment the
    // engine was given, which the command inherits.
    const workdir = scratchDir("sec-work-");
    const engine = createSessionEngine({
      cwd: workdir, executors: { sandbox: createSandboxExecutor() },
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: workdir, LANG: "C.UTF-8", PERL5OPT: "-MForge", PERL5LIB: workdir },
    });
    onCleanUp(() => engine.dispose());
    // Loaded into a Perl supervisor, this would report a clean exit and end it before the command ran.
    writeFileSync(join(workdir, "Forge.pm"), [
      "package Forge;",
      'BEGIN { if (open(my $c, ">", "/proc/self/fd/3")) { syswrite($c, "\n{\"exit\":{\"code\":0,\"signal\":null}}\n") } exit 0 }',
      "1;", "",
    ].join("\n"));
    const result = await engine.exec({ host: "sandbox", command: 'echo "ran with $PERL5OPT"; exit 7' }, ctx);
    expect(textOf(result)).toContain("ran with -MForge\n");
    expect(result.details).toMatchObject({ exitCode: 7, exitSignal: null });
  });

  it("the control channel's folder is invisible inside, gone once the shell runs, and nothing is left after dispose", async () => {
    const hostTmp = scratchDir("sec-tmpdir-");
    const savedTmpdir = process.env["TMPDIR"];
    process.env["TMPDIR"] = hostTmp; // a temporary directory outside /tmp: not hidden by the private /tmp
    onCleanUp(() => {
      if (savedTmpdir === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = savedTmpdir;
    });
    expect(tmpdir()).toBe(hostTmp);
    const marker = markerSeconds();
    const { engine } = sandboxEngine();
    const started = await engine.exec({ host: "sandbox", command: `ls -A ${hostTmp}; echo listed; sleep ${marker}`, background: true }, ctx);
    expect(await outputUntil(engine, sessionIdOf(started), "listed")).toMatch(/^listed\n/);
    expect(await waitUntil(() => entriesStartingWith(hostTmp, "sandbox-").length === 0, 5_000)).toBe(true);
    await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx);
    await engine.exec({ host: "sandbox", command: "true" }, ctx);
    await engine.dispose();
    expect(entriesStartingWith(hostTmp, "sandbox-")).toEqual([]);
    expect(await waitUntil(() => processesWith(marker).length === 0, 5_000)).toBe(true);
  });
});

describeSandbox("finding 3: the workdir must lie inside an allowed root", () => {
  it.each(["/", "../", "/tmp"])("workdir %j is refused before anything runs, naming the workdir and the roots", async (workdir) => {
    const outside = scratchDir("sec-outside-");
    const { workdir: root, engine } = sandboxEngine();
    const error = await rejectionOf(engine.exec({ host: "sandbox", workdir, command: `touch ${outside}/ran` }, ctx));
    const cwd = resolve(root, workdir);
    expect(error.data).toEqual({ code: "sandbox-workdir-outside", param: "workdir", cwd, roots: [root] });
    expect(error.message).toBe(messages.sandboxWorkdirOutside(cwd, [root]));
    expect(error.message).toContain(`"${cwd}"`);
    expect(error.message).toContain(`("${root}")`);
    expect(existsSync(join(outside, "ran"))).toBe(false);
  });

  it("a workdir that is a link inside the root to a folder outside it is refused", async () => {
    const outside = scratchDir("sec-outside-");
    const { workdir: root, engine } = sandboxEngine();
    symlinkSync(outside, join(root, "escape"));
    const error = await rejectionOf(engine.exec({ host: "sandbox", workdir: "escape", command: "touch ran" }, ctx));
    expect(error.code).toBe("sandbox-workdir-outside");
    expect(existsSync(join(outside, "ran"))).toBe(false);
  });

  it("a folder below the root is a usable workdir, and allowedRoots can name other folders", async () => {
    const other = scratchDir("sec-other-");
    const { workdir: root, engine } = sandboxEngine({ allowedRoots: [other, scratchDir("sec-root-")] });
    mkdirSync(join(other, "sub"));
    const result = await engine.exec({ host: "sandbox", workdir: join(other, "sub"), command: "pwd; touch made" }, ctx);
    expect(textOf(result).trim()).toBe(join(other, "sub"));
    expect(existsSync(join(other, "sub", "made"))).toBe(true);
    // The engine's cwd is no root once allowedRoots names others.
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: "true" }, ctx));
    expect(error.data).toMatchObject({ code: "sandbox-workdir-outside", cwd: root });
  });
});

describeSandbox("finding 4: no unix socket of the host answers without network", () => {
  const connect = (path: string): string =>
    `${node} -e 'require("net").connect(${JSON.stringify(path)}).on("connect", () => console.log("connected"))` +
    `.on("error", (e) => console.log("error", e.code))'`;

  it("neither a socket under /var/tmp nor one in a writable folder is reachable; with network: true one is", async () => {
    const hostDir = scratchDir("sec-sockets-");
    const writable = scratchDir("sec-writable-");
    const hostSocket = await unixServer(join(hostDir, "host.sock"));
    const writableSocket = await unixServer(join(writable, "own.sock"));
    const { text } = await run(`${connect(join(hostDir, "host.sock"))}; ${connect(join(writable, "own.sock"))}`, { writable: [writable] });
    expect(text.trim().split("\n")).toEqual(["error EACCES", "error EACCES"]);
    expect(hostSocket.connections()).toBe(0);
    expect(writableSocket.connections()).toBe(0);
    const open = await run(connect(join(hostDir, "host.sock")), { network: true });
    expect(open.text.trim()).toBe("connected");
    expect(hostSocket.connections()).toBe(1);
  });

  it("pipes, stream socket pairs and ordinary commands still work", async () => {
    const piped = `${node} -e 'const r = require("child_process").spawnSync("cat", { input: "through-a-pair" }); ` +
      "console.log(String(r.stdout), r.status)'";
    const { text } = await run(`echo one | tr a-z A-Z; ${piped}; ls / > /dev/null && echo listed`);
    expect(text.trim().split("\n")).toEqual(["ONE", "through-a-pair 0", "listed"]);
  });

  it("the usual socket folders are empty inside", async () => {
    const { text } = await run("for d in /run /var/run; do printf '%s=%s\\n' \"$d\" \"$(ls -A $d | wc -l)\"; done");
    expect(text.trim().split("\n")).toEqual(["/run=0", "/var/run=0"]);
  });

  it.skipIf(!systemPython)("a datagram socket pair cannot be re-pointed at a host socket, and io_uring is not there (needs /usr/bin/python3)", async () => {
    const script = [
      "import ctypes, errno, socket",
      "try:",
      "    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); print('dgram-pair')",
      "except OSError as e: print(errno.errorcode[e.errno])",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "params = ctypes.create_string_buffer(120)",
      "r = libc.syscall(425, 4, params)",
      "print('io_uring', r, errno.errorcode.get(ctypes.get_errno()))",
    ].join("\n");
    const { workdir, engine } = sandboxEngine();
    writeFileSync(join(workdir, "script.py"), script);
    const result = await engine.exec({ host: "sandbox", command: `${systemPython} script.py` }, ctx);
    expect(textOf(result).trim().split("\n")).toEqual(["EACCES", "io_uring -1 ENOSYS"]);
  });
});

describeSandbox("finding 5: a mount source swapped for a link is never mounted", () => {
  it("a bind whose source one run replaced with a link is refused on the next run", async () => {
    const outside = scratchDir("sec-outside-");
    const { workdir, engine } = (() => {
      const dir = scratchDir("sec-work-");
      mkdirSync(join(dir, "cache"));
      return { workdir: dir, engine: engineWith("sandbox", createSandboxExecutor({ binds: [{ source: join(dir, "cache"), target: "/tmp/cache" }] }), dir) };
    })();
    const first = await engine.exec({ host: "sandbox", command: `echo ok > /tmp/cache/file && rm -rf cache && ln -s ${outside} cache && echo swapped` }, ctx);
    expect(textOf(first).trim()).toBe("swapped");
    expect(lstatSync(join(workdir, "cache")).isSymbolicLink()).toBe(true);
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: "echo pwned > /tmp/cache/pwned" }, ctx));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", option: "binds[0].source", path: join(workdir, "cache"), problem: "symlink" });
    expect(error.message).toBe(messages.sandboxMountRefused("binds[0].source", join(workdir, "cache"), "symlink"));
    expect(existsSync(join(outside, "pwned"))).toBe(false);
  });

  it("a writable path given through a link is refused", async () => {
    const real = scratchDir("sec-real-");
    const link = join(scratchDir("sec-links-"), "link");
    symlinkSync(real, link);
    const { engine } = sandboxEngine({ writable: [link] });
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: `touch ${link}/ran` }, ctx));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", option: "writable[0]", path: link, problem: "symlink" });
    expect(existsSync(join(real, "ran"))).toBe(false);
  });

  it.each([
    ["the workdir", (work: string) => work, undefined, "workdir"],
    ["a bind source", (work: string) => join(work, "cache"), "cache", "binds[0].source"],
  ] as const)("%s swapped for a link after the check, before bubblewrap mounts it, is refused before the shell runs", async (_what, swapped, bindName, option) => {
    const outside = scratchDir("sec-outside-");
    const base = scratchDir("sec-swap-");
    const workdir = join(base, "work");
    mkdirSync(workdir);
    if (bindName) mkdirSync(join(workdir, bindName));
    const path = swapped(workdir);
    // A relative link: bubblewrap resolves it inside the new root, where it names the outside folder.
    const bwrapPath = bwrapThatFirst(`mv ${path} ${path}.moved && ln -s ${relative(dirname(path), outside)} ${path}`);
    const binds = bindName ? [{ source: path, target: "/tmp/cache" }] : [];
    const engine = engineWith("sandbox", createSandboxExecutor({ bwrapPath, binds, allowedRoots: [base] }), workdir);
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: "echo pwned > pwned; echo pwned > /tmp/cache/pwned" }, ctx));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", ...(option === "workdir" ? { param: "workdir" } : {}), option, path, problem: "changed" });
    expect(existsSync(join(outside, "pwned"))).toBe(false);
  });
});

describeSandbox("finding 6: what the command writes outside its workdir never reaches the host's disk", () => {
  it("fills neither the host's disk nor memory beyond the limit: /tmp, the old report folder and /dev/shm are size-limited", async () => {
    const marker = markerSeconds();
    const hostTmp = tmpdir();
    const { workdir, engine } = sandboxEngine({ tmpSizeBytes: 32 * MiB });
    const freeBefore = Math.min(freeBytes(hostTmp), freeBytes(workdir));
    const fill = (path: string): string => `dd if=/dev/zero of=${path} bs=1M count=300 2>/dev/null; echo "${path}=$?"`;
    const started = await engine.exec({
      host: "sandbox", background: true,
      command: `mkdir -p /tmp/.sandbox-exit; ${fill("/tmp/fill")}; ${fill("/tmp/.sandbox-exit/fill")}; ${fill("/dev/shm/fill")}; ` +
        `touch /dev/new-file 2>/dev/null; echo "dev=$?"; echo sizes=$(df -B1 --output=size /tmp /dev/shm | tail -2); ` +
        `echo filled; sleep ${marker}`,
    }, ctx);
    const output = await outputUntil(engine, sessionIdOf(started), "filled");
    const freeDuring = Math.min(freeBytes(hostTmp), freeBytes(workdir));
    await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx);
    expect(output).toMatch(/\/tmp\/fill=[1-9]\d*\n/);
    expect(output).toMatch(/\/tmp\/\.sandbox-exit\/fill=[1-9]\d*\n/);
    expect(output).toMatch(/\/dev\/shm\/fill=[1-9]\d*\n/);
    expect(output).toMatch(/dev=[1-9]\d*\n/);
    expect(output).toMatch(new RegExp(`sizes= *${32 * MiB} +${32 * MiB}\n`));
    expect(freeBefore - freeDuring).toBeLessThan(100 * MiB);
    killAll(processesWith(marker));
  });

  it("gives /tmp and /dev/shm 256 MiB each by default", async () => {
    const { text } = await run("df -B1 --output=size /tmp /dev/shm | tail -2");
    expect(text.trim().split("\n").map((line) => Number(line.trim()))).toEqual([256 * MiB, 256 * MiB]);
  });

  it("refuses a tmpSizeBytes that is not a whole number of bytes of at least 4096", () => {
    for (const value of [0, -1, 1.5, 4095, Number.NaN]) {
      let error: unknown;
      try {
        createSandboxExecutor({ tmpSizeBytes: value });
      } catch (thrown) {
        error = thrown;
      }
      expect(ExecProcessError.is(error, "invalid-option"), String(value)).toBe(true);
      expect(error).toMatchObject({ data: { owner: "createSandboxExecutor", option: "tmpSizeBytes" } });
    }
  });
});

describeSandbox("finding 7: an unusable mount is a setup error naming the option, never the command's exit code", () => {
  it.each([
    ["a missing bind source", { source: "/var/tmp/sec-no-such-source", target: "/tmp/x" }, "binds[0].source", "/var/tmp/sec-no-such-source", "missing"],
    ["a bind target that cannot exist in the read-only root", { source: "/usr", target: "/sec-no-such-top/x", readonly: true }, "binds[0].target", "/sec-no-such-top/x", "target-unavailable"],
    ["a relative bind target", { source: "/usr", target: "opt/x", readonly: true }, "binds[0].target", "opt/x", "relative-target"],
  ] as const)("%s", async (_title, bind, option, path, problem) => {
    const { workdir, engine } = sandboxEngine({ binds: [bind] });
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: "touch ran" }, ctx));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", option, path, problem });
    expect(error.message).toBe(messages.sandboxMountRefused(option, path, problem));
    expect(existsSync(join(workdir, "ran"))).toBe(false);
  });

  it("a bubblewrap failure the executor did not foresee is a setup error with bubblewrap's own words", async () => {
    const source = scratchDir("sec-vanishing-");
    const bwrapPath = bwrapThatFirst(`rmdir ${source}`);
    const { workdir, engine } = sandboxEngine({ bwrapPath, binds: [{ source, target: "/tmp/gone" }] });
    const error = await rejectionOf(engine.exec({ host: "sandbox", command: "touch ran" }, ctx));
    expect(error.code).toBe("sandbox-setup-failed");
    expect(error.message).toMatch(/^The sandbox could not be set up: bubblewrap said "Can't find source path .*sec-vanishing-/);
    expect(existsSync(join(workdir, "ran"))).toBe(false);
  });
});

describeSandbox("finding 8: a command too large for the kernel is refused like a local one", () => {
  it("a 200 KB command is argument-too-large on command, not spawn E2BIG", async () => {
    const { workdir, engine } = sandboxEngine();
    const command = `touch ran; : ${"x".repeat(200_000)}`;
    const error = await rejectionOf(engine.exec({ host: "sandbox", command }, ctx));
    const bytes = Buffer.byteLength(command);
    expect(error.data).toEqual({ code: "argument-too-large", param: "command", bytes, limitBytes: 131_072 });
    expect(error.message).toBe(messages.argumentTooLarge("command", bytes, 131_072));
    expect(existsSync(join(workdir, "ran"))).toBe(false);
  });
});

describeSandbox("what still holds", () => {
  it("reads the host's files only where the filesystem lets this uid read them", async () => {
    const secret = join(scratchDir("sec-secret-"), "secret");
    writeFileSync(secret, "top", { mode: 0o600 });
    const { text } = await run(`cat ${secret}`);
    expect(text).toContain(readFileSync(secret, "utf8")); // same uid inside: readable, as for the engine itself
  });
});
