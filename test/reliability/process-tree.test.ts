// Truthful termination of the whole tree (issue 9): every session's processes carry an inherited marker variable, and
// kill, remove, timeout and dispose also signal the processes that carry it, so `setsid` and double-forked escapees
// end too and the session reports the signal that actually ended its shell. An escapee that cleared its environment
// is out of reach of the marker: the session still settles with the shell's real exit and names the pids that hold
// its output.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalSessionEngine } from "../../src/engine/index.js";
import {
  ctx, disposeEngines, isProcessAlive, killProcess, newEngine, pollUntilDone, sessionIdOf, tempDir, textOf, waitUntil,
} from "./helpers.js";

const leftovers: number[] = [];
afterEach(async () => {
  await disposeEngines();
  for (const pid of leftovers.splice(0)) killProcess(pid);
});

/** Starts `command` in the background in `cwd` and waits for the pid file it writes. */
async function startWithPidFile(engine: LocalSessionEngine, cwd: string, command: string, pidFile: string, pty = false): Promise<{ id: string; escapee: number }> {
  const id = sessionIdOf(await engine.exec({ command, background: true, pty, workdir: cwd }, ctx));
  const path = join(cwd, pidFile);
  expect(await waitUntil(() => existsSync(path) && readFileSync(path, "utf8").trim() !== "", 10_000)).toBe(true);
  const escapee = Number(readFileSync(path, "utf8").trim());
  leftovers.push(escapee);
  expect(isProcessAlive(escapee)).toBe(true);
  return { id, escapee };
}

const SETSID = "setsid sh -c 'echo $$ > esc.pid; exec sleep 1002' & echo s; sleep 1012";
const DOUBLE_FORK = "(setsid sh -c 'echo $$ > esc.pid; exec sleep 1003' &); echo s; sleep 1013";

describe("termination reaches processes that left the group", () => {
  it.each([
    ["a setsid escapee", SETSID, false],
    ["a double-forked setsid escapee", DOUBLE_FORK, false],
    ["a setsid escapee of a PTY session", SETSID, true],
  ])("kill ends %s and reports the SIGTERM that ended the shell", async (_, command, pty) => {
    const cwd = tempDir();
    const engine = newEngine({ cwd });
    const { id, escapee } = await startWithPidFile(engine, cwd, command, "esc.pid", pty);
    expect(textOf(await engine.process({ action: "kill", sessionId: id }, ctx))).toBe(`Termination requested for session ${id}.`);
    const done = await pollUntilDone(engine, id);
    expect(done.details).toMatchObject({ status: "completed", exitReason: "manual-cancel", exitSignal: "SIGTERM", exitCode: null });
    expect(await waitUntil(() => !isProcessAlive(escapee), 5_000)).toBe(true);
  }, 60_000);

  it("a timeout ends a setsid escapee and reports the SIGTERM of the timeout (KILL-10)", async () => {
    const cwd = tempDir();
    const engine = newEngine({ cwd });
    const id = sessionIdOf(await engine.exec({ command: SETSID, background: true, timeoutSeconds: 1, workdir: cwd }, ctx));
    const path = join(cwd, "esc.pid");
    expect(await waitUntil(() => existsSync(path) && readFileSync(path, "utf8").trim() !== "", 10_000)).toBe(true);
    const escapee = Number(readFileSync(path, "utf8"));
    leftovers.push(escapee); // before any assertion, so a failing run still ends it
    const done = await pollUntilDone(engine, id);
    expect(done.details).toMatchObject({ status: "failed", exitReason: "overall-timeout", exitSignal: "SIGTERM" });
    expect(await waitUntil(() => !isProcessAlive(escapee), 5_000)).toBe(true);
  }, 60_000);

  it.each(["remove", "dispose"] as const)("%s ends a setsid escapee", async (how) => {
    const cwd = tempDir();
    const engine = newEngine({ cwd });
    const { id, escapee } = await startWithPidFile(engine, cwd, SETSID, "esc.pid");
    if (how === "remove") await engine.process({ action: "remove", sessionId: id }, ctx);
    else await engine.dispose();
    expect(await waitUntil(() => !isProcessAlive(escapee), 10_000)).toBe(true);
  }, 60_000);

  it("an escapee that cleared its environment is named with its pid, and the shell's real exit is reported", async () => {
    const cwd = tempDir();
    const engine = newEngine({ cwd });
    const command = "env -i /usr/bin/setsid /bin/sh -c 'echo $$ > esc.pid; exec /bin/sleep 1004' & echo s; sleep 1014";
    const { id, escapee } = await startWithPidFile(engine, cwd, command, "esc.pid");
    await engine.process({ action: "kill", sessionId: id }, ctx);
    const done = await pollUntilDone(engine, id); // settled after the grace and the settle delay (KILL-08, KILL-11)
    expect(done.details).toMatchObject({ exitSignal: "SIGTERM", exitCode: null, outputHeldByPids: [escapee] });
    expect(isProcessAlive(escapee)).toBe(true); // documented limit: out of reach without the marker
  }, 60_000);
});

describe("the session marker variable", () => {
  it("is inherited by every command, unique per session, and cannot be overridden through env", async () => {
    const engine = newEngine();
    const first = await engine.exec({ command: 'printf %s "$EXEC_PROCESS_SESSION"' }, ctx);
    const second = await engine.exec({ command: 'printf %s "$EXEC_PROCESS_SESSION"', env: { EXEC_PROCESS_SESSION: "mine" } }, ctx);
    const other = await newEngine().exec({ command: 'printf %s "$EXEC_PROCESS_SESSION"' }, ctx);
    const values = [first, second, other].map(textOf);
    expect(values.every((v) => /^[0-9a-f]{12}-\d+$/.test(v))).toBe(true);
    expect(new Set(values).size).toBe(3);
    expect(textOf(await engine.exec({ command: 'printf %s "$OPENCLAW_SHELL"' }, ctx))).toBe("exec"); // EXEC-15
  });
});
