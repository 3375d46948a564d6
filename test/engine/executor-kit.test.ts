// src/engine/executor-kit.ts: the toolkit an executor that runs a local program builds on (issue 24): spawnLocal over
// pipes and a terminal, the shell, the exec limits, and finding and signalling processes.
import { describe, expect, it } from "vitest";
import {
  checkExecLimits, localShell, processGroupMembers, sessionMembers, signalProcess, spawnLocal, terminalName, TERMINAL_SIZE,
  type LocalProcessSink,
} from "../../src/engine/executor-kit.js";
import * as engineEntry from "../../src/engine/index.js";
import { MAX_ARG_STRLEN_BYTES } from "../../src/engine/spawn/exec-limits.js";
import { PTY_COLS, PTY_ROWS } from "../../src/engine/settings.js";

/** A sink that collects the output and resolves with the completion. */
function collectingSink(): { sink: LocalProcessSink; output: () => string; completed: Promise<[number | null, string | null]> } {
  let output = "";
  let complete: (value: [number | null, string | null]) => void = () => {};
  const completed = new Promise<[number | null, string | null]>((resolve) => (complete = resolve));
  return {
    sink: {
      onOutput: (_stream, chunk) => void (output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
      onExit: () => {},
      onComplete: (code, signal) => complete([code, signal]),
    },
    output: () => output,
    completed,
  };
}

const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", TERM: "dumb" };

describe("executor kit", () => {
  it("is exported by the engine entry, the same values", () => {
    const entry = engineEntry as Record<string, unknown>;
    for (const [name, value] of Object.entries({ checkExecLimits, localShell, processGroupMembers, sessionMembers, signalProcess, spawnLocal, terminalName, TERMINAL_SIZE })) {
      expect(entry[name], name).toBe(value);
    }
  });

  it("spawnLocal over pipes runs the command in a group of its own and reports its output and exit", async () => {
    const { sink, output, completed } = collectingSink();
    const { shell, args } = localShell(env);
    const child = await spawnLocal({ shell, args, command: "echo pipes; exit 3", cwd: "/", env }, sink, { pty: false });
    expect(child.pty).toBe(false);
    expect(child.stdin).toBeUndefined(); // EXEC-45
    expect(await completed).toEqual([3, null]);
    expect(output()).toBe("pipes\n");
  });

  it("spawnLocal on a terminal of TERMINAL_SIZE gives the command a tty and can signal its group", async () => {
    const { sink, output, completed } = collectingSink();
    const { shell, args } = localShell(env);
    const child = await spawnLocal({ shell, args, command: "stty size; test -t 0 && echo tty; sleep 30", cwd: "/", env }, sink, { pty: true });
    expect(child.pty).toBe(true);
    for (const deadline = Date.now() + 10_000; !output().includes("tty") && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    expect(output()).toContain(`${TERMINAL_SIZE.rows} ${TERMINAL_SIZE.cols}`);
    expect(processGroupMembers(child.pid ?? 0)).toContain(child.pid);
    child.signal?.("SIGKILL");
    expect((await completed)[1]).toBe("SIGKILL");
  });

  it("TERMINAL_SIZE is the PTY size of the engine (PTY-02) and terminalName follows PTY-03", () => {
    expect(TERMINAL_SIZE).toEqual({ cols: PTY_COLS, rows: PTY_ROWS });
    expect(terminalName({ TERM: "screen" })).toBe("screen");
    expect(terminalName({ TERM: "dumb" })).toBe("xterm-256color");
  });

  it("localShell follows EXEC-27/EXEC-28 (bash without its start files), and checkExecLimits refuses an argument over the kernel limit", () => {
    expect(localShell({ SHELL: "/bin/bash" })).toEqual({ shell: "/bin/bash", args: ["--noprofile", "--norc", "-c"] });
    expect(localShell({ SHELL: "/bin/false", PATH: env.PATH }).args).toEqual(["-c"]);
    expect(checkExecLimits({ shell: "/bin/sh", args: ["-c"], command: "true", cwd: "/", env })).toBeUndefined();
    const tooLarge = checkExecLimits({ shell: "/bin/sh", args: ["-c"], command: "x".repeat(MAX_ARG_STRLEN_BYTES + 1), cwd: "/", env });
    expect(tooLarge).toMatchObject({ code: "argument-too-large" });
  });

  it("sessionMembers lists a session's processes with their parents; signalProcess ends one, and a pid that is gone is no error", async () => {
    const { sink, completed } = collectingSink();
    const { shell, args } = localShell(env);
    const child = await spawnLocal({ shell, args, command: "sleep 30 & wait", cwd: "/", env }, sink, { pty: false });
    const leader = child.pid ?? 0;
    let members: Array<{ pid: number; ppid: number }> = [];
    for (const deadline = Date.now() + 10_000; members.length < 2 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      members = sessionMembers(leader);
    }
    expect(members.find((member) => member.pid !== leader)?.ppid).toBe(leader);
    signalProcess(-leader, "SIGKILL");
    expect(await completed).toEqual([null, "SIGKILL"]);
    expect(() => signalProcess(leader, "SIGTERM")).not.toThrow();
  });
});
