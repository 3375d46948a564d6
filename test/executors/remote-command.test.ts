// The shell text sent to a node, run here by the local /bin/sh standing in for the node's login shell and control
// shell: the start frame, the environment file (private, self-removing, values exact), the workdir check, and the
// orphan kill that spares a process whose pid was reused.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import {
  envFileLine, envFilePath, envScript, newMarker, orphanKillLine, parseStartFrame, remoteCommandLine, shellQuote,
} from "../../src/executors/ssh/remote-command.js";
import { cleanUp, onCleanUp, scratchDir, waitUntil } from "./helpers.js";

afterEach(cleanUp);

/** Runs `line` as sshd runs a command: `<login shell> -c <line>`. */
function runLine(line: string, env: Record<string, string> = { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }) {
  const result = spawnSync("/bin/sh", ["-c", line], { encoding: "latin1", env });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status, pid: result.pid };
}

const commandLine = (overrides: Partial<Parameters<typeof remoteCommandLine>[0]> & { cwd: string; marker: string }): string =>
  remoteCommandLine({ command: "true", shell: "/bin/sh", pty: false, envFile: undefined, ...overrides });

describe("remoteCommandLine", () => {
  it("prints the frame with the shell's pid and start time first, then runs the command in the workdir with OPENCLAW_SHELL", () => {
    const cwd = scratchDir("remote-cmd-");
    const marker = newMarker();
    const run = runLine(commandLine({ cwd, marker, command: 'echo "$$|$(pwd)|$OPENCLAW_SHELL"' }));
    const match = new RegExp(`^\u001e${marker}(:\\d+:\\d*)\u001e(.*)$`, "s").exec(run.stdout);
    const frame = parseStartFrame(match?.[1] ?? "");
    expect(frame).toEqual({ pid: run.pid, startTime: expect.stringMatching(/^\d+$/) });
    expect(match?.[2]).toBe(`${run.pid}|${cwd}|exec\n`); // exec kept the pid: it is the command's shell
    expect(run.stderr).toBe(`\u001e${marker}\u001e`);
  });

  it("prints no stderr marker for a terminal, where both streams are one", () => {
    const run = runLine(commandLine({ cwd: "/", marker: newMarker(), pty: true }));
    expect(run.stderr).toBe("");
  });

  it("ends with exit code 1 and the message when the workdir is missing", () => {
    const run = runLine(commandLine({ cwd: "/nonexistent/dir", marker: newMarker(), command: "echo ran" }));
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain("ran");
    expect(run.stderr).toContain(messages.nodeWorkdirMissing("/nonexistent/dir"));
  });

  it("ends with exit code 1 and says so when its environment file is missing", () => {
    const run = runLine(commandLine({ cwd: "/", marker: newMarker(), command: "echo ran", envFile: "/nonexistent/env" }));
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain("ran");
    expect(run.stderr).toContain(messages.NODE_ENV_FILE_MISSING);
  });
});

describe("the environment file", () => {
  const values = {
    QUOTES: `it's "quoted" \\ and $HOME and \`date\``,
    LINES: "one\ntwo\n",
    UNICODE: "grüße ✓",
    EMPTY: "",
  };

  it("is written 0600 by the control shell, removes itself when read, and carries every value exactly", () => {
    const dir = scratchDir("remote-env-");
    const marker = newMarker();
    const path = envFilePath(dir, marker);
    const written = runLine(`umask 077; ${envFileLine(path, envScript(values))}`);
    expect(written.status).toBe(0);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    const command = Object.keys(values).map((key) => `printf '%s\\0' "$${key}"`).join("; ");
    const run = runLine(commandLine({ cwd: dir, marker, command, envFile: path }));
    expect(run.status).toBe(0);
    const output = Buffer.from(run.stdout.slice(run.stdout.lastIndexOf("\u001e") + 1), "latin1").toString("utf8");
    expect(output.split("\0").slice(0, -1)).toEqual(Object.values(values));
    expect(existsSync(path)).toBe(false);
  });

  it.each([
    ["an existing file", (path: string) => writeFileSync(path, "planted")],
    ["a symbolic link", (path: string, dir: string) => symlinkSync(join(dir, "target"), path)],
  ])("is never written over %s", (_, plant) => {
    const dir = scratchDir("remote-env-");
    const path = envFilePath(dir, newMarker());
    plant(path, dir);
    const written = runLine(`umask 077; ${envFileLine(path, envScript({ SECRET: "value" }))}`);
    expect(written.status).not.toBe(0);
    expect(existsSync(join(dir, "target"))).toBe(false);
    if (!lstatSync(path).isSymbolicLink()) expect(readFileSync(path, "utf8")).toBe("planted");
  });

  it("leaves out names a shell cannot set", () => {
    expect(envScript({ GOOD_NAME: "1", "BAD-NAME": "2", "f()": "3" })).toBe(`GOOD_NAME=${shellQuote("1")}; export GOOD_NAME\n`);
  });
});

describe("orphanKillLine", () => {
  /** A session of its own (as sshd gives a command) whose leader ticks on stdout while it lives. */
  function startSession(): { pid: number; ticks(): number } {
    const child = spawn("/bin/sh", ["-c", "while :; do echo t; sleep 0.05; done"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    let ticks = 0;
    child.stdout.on("data", (chunk: Buffer) => (ticks += chunk.toString().split("t").length - 1));
    const pid = child.pid ?? 0;
    onCleanUp(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // ended
      }
    });
    return { pid, ticks: () => ticks };
  }
  const alive = (pid: number): boolean => {
    try {
      return !readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.startsWith("Z");
    } catch {
      return false;
    }
  };
  const startTimeOf = (pid: number): string => readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.split(" ")[19] ?? "";

  it("spares a process whose start time is not the command's (its pid was reused)", async () => {
    const session = startSession();
    expect(await waitUntil(() => session.ticks() > 0, 5_000)).toBe(true);
    expect(runLine(orphanKillLine(session.pid, String(Number(startTimeOf(session.pid)) + 1))).status).toBe(0);
    const after = session.ticks();
    expect(await waitUntil(() => session.ticks() >= after + 3, 5_000), "it goes on ticking").toBe(true);
  });

  it("kills the command's session when the start time matches", async () => {
    const session = startSession();
    expect(await waitUntil(() => session.ticks() > 0, 5_000)).toBe(true);
    runLine(orphanKillLine(session.pid, startTimeOf(session.pid)));
    expect(await waitUntil(() => !alive(session.pid), 5_000)).toBe(true);
  });
});
