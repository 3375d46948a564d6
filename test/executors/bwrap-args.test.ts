// src/executors/sandbox/bwrap-args.ts: bubblewrap's command line for one sandboxed command, argument by argument,
// and what the real bubblewrap makes of it (skipped with the reason when bwrap is not installed).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bwrapArgs, HIDING_TMPFS_BYTES, type SandboxLayout } from "../../src/executors/sandbox/bwrap-args.js";
import { SECCOMP_FD } from "../../src/executors/sandbox/supervisor.js";
import { realBwrap } from "../security/helpers.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

const layout = (overrides: Partial<SandboxLayout> = {}): SandboxLayout => ({
  cwd: "/work/project", steps: [], network: false, tmpSizeBytes: 8192, seccomp: false, ...overrides,
});

describe("bwrapArgs", () => {
  it("lays out the base view, the planned mounts in order, /dev read-only, the cwd, the namespaces and the seccomp fd", () => {
    const args = bwrapArgs(layout({
      steps: [
        { kind: "hide", target: "/run" },
        { kind: "ro-bind", source: "/opt/tools", target: "/tools" },
        { kind: "bind", source: "/work/project", target: "/work/project" },
        { kind: "hide", target: "/work/project/.secrets" },
      ],
      seccomp: true,
    }));
    expect(args).toEqual([
      "--ro-bind", "/", "/",
      "--dev", "/dev", "--size", "8192", "--tmpfs", "/dev/shm",
      "--proc", "/proc",
      "--size", "8192", "--tmpfs", "/tmp",
      "--size", "1048576", "--tmpfs", "/run",
      "--ro-bind", "/opt/tools", "/tools",
      "--bind", "/work/project", "/work/project",
      "--size", "1048576", "--tmpfs", "/work/project/.secrets",
      "--remount-ro", "/dev",
      "--chdir", "/work/project",
      "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
      "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent",
      "--unshare-net",
      "--seccomp", "4",
      "--",
    ]);
  });

  it("hides with a 1 MiB tmpfs and passes the seccomp program on the fd the launch wrapper opens", () => {
    expect(HIDING_TMPFS_BYTES).toBe(1024 * 1024);
    expect(SECCOMP_FD).toBe(4);
  });

  it("shares the host's network only when asked to, and passes no seccomp program without one", () => {
    const args = bwrapArgs(layout({ network: true }));
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("--seccomp");
    expect(args.slice(args.indexOf("--chdir"))).toEqual([
      "--chdir", "/work/project",
      "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
      "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent",
      "--",
    ]);
  });

  it("never asks for a new session: the engine's own session is how the processes inside are found (and has no host terminal)", () => {
    expect(bwrapArgs(layout({ seccomp: true }))).not.toContain("--new-session");
    expect(bwrapArgs(layout({ network: true }))).not.toContain("--new-session");
  });
});

// What the kernel shows inside: a user namespace with no capabilities (also when the engine runs as root) that allows no
// further one, no network but loopback, a size-limited /tmp, a hidden folder empty, a read-only bind unwritable, a bind
// writable, /dev read-only but its /dev/shm writable.
describe.skipIf(realBwrap === undefined)("bwrapArgs under the real bubblewrap", () => {
  it("gives a command without any capability, in its own user and network namespaces, the mounts as planned", () => {
    const host = scratchDir("bwrap-args-");
    for (const name of ["hidden", "shown", "shown-ro", "work"]) mkdirSync(join(host, name));
    writeFileSync(join(host, "hidden", "secret"), "s");
    writeFileSync(join(host, "shown", "file"), "f");
    const args = bwrapArgs({
      cwd: join(host, "work"),
      steps: [
        { kind: "hide", target: join(host, "hidden") },
        { kind: "ro-bind", source: join(host, "shown"), target: join(host, "shown-ro") },
        { kind: "bind", source: join(host, "work"), target: join(host, "work") },
      ],
      network: false, tmpSizeBytes: 65536, seccomp: false,
    });
    const script = [
      "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status | tr -s '\\t ' ' '",
      "echo \"uid-range $(awk '{ print $3 }' /proc/self/uid_map)\"",
      "command -v unshare >/dev/null && { unshare --user true 2>/dev/null && echo userns-allowed || echo userns-refused; }",
      "awk 'NR > 2 { sub(\":\", \"\", $1); print \"net \" $1 }' /proc/net/dev",
      "echo \"tmp $(stat -f -c '%b %S' /tmp)\"",
      `echo "hidden $(ls -A ${join(host, "hidden")} | wc -l)"`,
      `echo "shown $(cat ${join(host, "shown-ro", "file")})"`,
      `touch ${join(host, "shown-ro", "new")} 2>/dev/null && echo ro-writable || echo ro-refused`,
      "touch here && echo cwd-writable",
      "touch /dev/probe 2>/dev/null && echo dev-writable || echo dev-refused",
      "touch /dev/shm/probe && echo shm-writable",
      "pwd",
    ].join("; ");
    const run = spawnSync(realBwrap ?? "bwrap", [...args, "/bin/sh", "-c", script], { encoding: "utf8", timeout: 30_000 });
    expect(run.stderr).toBe("");
    const lines = run.stdout.trim().split("\n");
    const blocks = /^tmp (\d+) (\d+)$/.exec(lines.find((line) => line.startsWith("tmp ")) ?? "");
    expect(Number(blocks?.[1]) * Number(blocks?.[2])).toBe(65536);
    expect(lines.filter((line) => !line.startsWith("tmp "))).toEqual([
      "CapInh: 0000000000000000", "CapPrm: 0000000000000000", "CapEff: 0000000000000000",
      "CapBnd: 0000000000000000", "CapAmb: 0000000000000000",
      "uid-range 1", "userns-refused",
      "net lo",
      "hidden 0", "shown f", "ro-refused", "cwd-writable", "dev-refused", "shm-writable",
      join(host, "work"),
    ]);
    expect(run.status).toBe(0);
  });
});
