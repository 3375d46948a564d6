// The control channel against a local /bin/sh standing in for the node's control shell: it reports the temporary
// directory, runs lines in order with their exit status, finds its acknowledgements in startup noise, and fails
// pending lines when the shell goes away.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ControlChannel, type ControlStream } from "../../src/executors/ssh/control-shell.js";
import { cleanUp, onCleanUp } from "./helpers.js";

afterEach(cleanUp);

/** A local process as the control channel's stream: its stdin, stdout and stderr, and its end. */
function localShell(script: string, env: Record<string, string> = {}): ControlStream {
  const child = spawn("/bin/sh", ["-c", script], { env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env } });
  onCleanUp(() => void child.kill("SIGKILL"));
  return {
    write: (data) => child.stdin.write(data),
    end: () => child.stdin.end(),
    on: (event, listener) => child.stdout.on(event, listener),
    once: (event, listener) => child.once(event, listener),
    stderr: child.stderr,
  };
}

describe("ControlChannel", () => {
  it("reports the shell's temporary directory and runs lines in order, each with its exit status", async () => {
    const control = await ControlChannel.start(localShell("exec /bin/sh", { TMPDIR: "/var/tmp/x y" }));
    expect(control.tempDir).toBe("/var/tmp/x y");
    expect(await Promise.all([control.run("true"), control.run("false"), control.run("(exit 7)")])).toEqual([0, 1, 7]);
    control.close();
  });

  it("finds its acknowledgements in the output of a noisy login", async () => {
    const noisy = "echo 'conda: base'; printf '\\036123\\036'; echo 'nvm: v20' >&2; exec /bin/sh";
    const control = await ControlChannel.start(localShell(noisy));
    expect(control.tempDir).toBe("/tmp");
    expect(await control.run("echo chatter; printf '\\036fake:1:0\\036'; (exit 2)")).toBe(2);
    control.close();
  });

  it("fails the lines still pending when the shell ends, and every later one", async () => {
    const control = await ControlChannel.start(localShell("exec /bin/sh"));
    let closed = false;
    control.onClose(() => (closed = true));
    await expect(control.run("exit 0")).rejects.toThrow("the control channel closed");
    expect(closed).toBe(true);
    await expect(control.run("true")).rejects.toThrow("the control channel is closed");
  });

  it("gives up when the shell never answers", async () => {
    await expect(ControlChannel.start(localShell("cat >/dev/null"), 200)).rejects.toThrow("the control shell did not answer");
  });
});
