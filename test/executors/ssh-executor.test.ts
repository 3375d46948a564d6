// createSshExecutor against a real sshd on 127.0.0.1 (started and stopped here): output, exit code and signal,
// remote terminal, environment, workdir, killing the remote process group, pooling, dispose and a dropped connection.
// Skipped with the reason when sshd cannot run on this machine (.ci/run installs openssh-server).
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSshExecutor, type SshExecutor, type SshNode } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { sshdUnavailableReason, startSshd } from "../../scripts/sshd-fixture.mjs";
import {
  cleanUp, ctx, engineWith, killAll, markerSeconds, onCleanUp, pollUntilDone, processesWith, scratchDir, sessionIdOf, sleepers, textOf,
  waitUntil,
} from "./helpers.js";

const unavailable = sshdUnavailableReason();
if (unavailable) console.warn(`SSH executor tests skipped: ${unavailable}`);
const describeSsh = unavailable ? describe.skip : describe;

type Sshd = Awaited<ReturnType<typeof startSshd>>;
let sshd: Sshd;
/** Set when sshd cannot give sessions a terminal here; only a plain user's sshd may lack them (root's must not). */
let terminalUnavailable: string | undefined;

describeSsh("createSshExecutor", () => {
  beforeAll(async () => {
    sshd = await startSshd();
    terminalUnavailable = process.getuid?.() === 0 ? undefined : sshd.terminalUnavailableReason();
    if (terminalUnavailable) console.warn(`SSH executor tests with a terminal skipped: ${terminalUnavailable}`);
  });
  afterAll(async () => {
    await sshd?.stop();
  });
  afterEach(cleanUp);

  const node = (): SshNode => ({
    host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKey,
  });

  function sshEngine(nodes: Record<string, SshNode> = { build: node() }) {
    const executor = createSshExecutor({ nodes });
    onCleanUp(() => executor.dispose());
    const workdir = scratchDir("ssh-work-");
    return { executor, workdir, engine: engineWith("node", executor, workdir) };
  }

  it("returns echo output and exit code 3", async () => {
    const { engine } = sshEngine();
    const result = await engine.exec({ host: "node", node: "build", command: "echo hello; exit 3" }, ctx);
    expect(result.details).toMatchObject({ exitCode: 3, exitSignal: null });
    expect(textOf(result)).toBe("hello\n\n(Command exited with code 3)");
  });

  it("reports the signal that ended the remote command", async () => {
    const { engine } = sshEngine();
    const result = await engine.exec({ host: "node", command: "kill -s TERM $$" }, ctx);
    expect(result.details).toMatchObject({ exitCode: null, exitSignal: "SIGTERM" });
  });

  it("keeps stdout and stderr apart", async () => {
    const { engine } = sshEngine();
    const started = await engine.exec({ host: "node", command: "echo out; echo err >&2", background: true }, ctx);
    // A waiting poll returns at the first output (POLL-07): wait for the end, then read everything.
    expect((await pollUntilDone(engine, sessionIdOf(started))).details.status).toBe("completed");
    const log = await engine.process({ action: "log", sessionId: sessionIdOf(started) }, ctx);
    expect(textOf(log).split("\n").sort()).toEqual(["err", "out"]);
  });

  it("prints a /dev/pts/N for tty under pty: true", async ({ skip }) => {
    if (terminalUnavailable) skip(terminalUnavailable);
    const { engine } = sshEngine();
    const result = await engine.exec({ host: "node", command: "tty; echo $TERM", pty: true }, ctx);
    expect(textOf(result)).toMatch(/^\/dev\/pts\/\d+\r?\nxterm-256color/);
  });

  it("passes input to a remote terminal", async ({ skip }) => {
    if (terminalUnavailable) skip(terminalUnavailable);
    const { engine } = sshEngine();
    const started = await engine.exec({ host: "node", command: "read line; echo got:$line", pty: true, background: true }, ctx);
    await engine.process({ action: "write", sessionId: sessionIdOf(started), data: "abc\r" }, ctx);
    let seen = "";
    for (let i = 0; i < 20 && !seen.includes("got:abc"); i += 1) {
      seen += textOf(await engine.process({ action: "poll", sessionId: sessionIdOf(started), timeout: 1_000 }, ctx));
    }
    expect(seen).toContain("got:abc");
  });

  it("carries the call's env literally and keeps the remote HOME", async () => {
    const { engine } = sshEngine();
    const result = await engine.exec({
      host: "node", command: 'printf "%s|%s|%s\\n" "$GREETING" "$OPENCLAW_SHELL" "$HOME"', env: { GREETING: "it's $HOME" },
    }, ctx);
    const remoteHome = (await engine.exec({ host: "node", command: "cd ~ && pwd -P" }, ctx)).content[0].text.trim();
    expect(textOf(result).trim()).toBe(`it's $HOME|exec|${remoteHome}`);
  });

  it("runs in the requested workdir, and fails clearly when the node has no such directory", async () => {
    const { engine, workdir } = sshEngine();
    expect(textOf(await engine.exec({ host: "node", command: "pwd" }, ctx)).trim()).toBe(workdir);
    const missing = await engine.exec({ host: "node", command: "pwd", workdir: "/nonexistent/dir" }, ctx);
    expect(missing.details).toMatchObject({ exitCode: 1 });
    expect(textOf(missing)).toContain(messages.nodeWorkdirMissing("/nonexistent/dir"));
  });

  it("kill ends a remote `sleep & sleep` pair", async () => {
    const marker = markerSeconds();
    const { engine } = sshEngine();
    const started = await engine.exec({ host: "node", command: `sleep ${marker} & sleep ${marker}`, background: true }, ctx);
    expect(await waitUntil(() => sleepers(marker) === 2, 10_000)).toBe(true);
    await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx);
    const gone = await waitUntil(() => processesWith(marker).length === 0, 10_000);
    const left = processesWith(marker);
    killAll(left);
    expect(gone, JSON.stringify(left)).toBe(true);
    const done = await engine.process({ action: "poll", sessionId: sessionIdOf(started), timeout: 10_000 }, ctx);
    expect(done.details).toMatchObject({ exitSignal: "SIGTERM", exitReason: "manual-cancel" });
  });

  it("a timeout ends the remote process group", async () => {
    const marker = markerSeconds();
    const { engine } = sshEngine();
    const result = await engine.exec({ host: "node", command: `sleep ${marker} & sleep ${marker}`, timeoutSeconds: 1 }, ctx);
    expect(result.details).toMatchObject({ timedOut: true });
    const gone = await waitUntil(() => processesWith(marker).length === 0, 10_000);
    killAll(processesWith(marker));
    expect(gone).toBe(true);
  });

  it("a command waiting for a free channel fails on abort, and on dispose", async () => {
    const marker = markerSeconds();
    const executor = createSshExecutor({ nodes: { build: node() }, maxSessionsPerConnection: 2, maxConnections: 1 });
    onCleanUp(() => executor.dispose());
    const engine = engineWith("node", executor, scratchDir("ssh-work-"));
    onCleanUp(() => killAll(processesWith(marker)));
    await engine.exec({ host: "node", command: `sleep ${marker}`, background: true }, ctx); // the one command channel
    const controller = new AbortController();
    const aborted = engine.exec({ host: "node", command: "echo never" }, { ...ctx, signal: controller.signal });
    const disposed = engine.exec({ host: "node", command: "echo never" }, ctx).catch((error: unknown) => error);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError", message: messages.ABORTED });
    await executor.dispose();
    expect(String(await disposed)).toContain(messages.ENGINE_DISPOSED);
    expect(await waitUntil(() => processesWith(marker).length === 0, 5_000)).toBe(true);
  });

  it("refuses an unknown node name, naming it and listing the known ones", async () => {
    const { engine } = sshEngine({ build: node(), test: node() });
    await expect(engine.exec({ host: "node", node: "prod", command: "true" }, ctx))
      .rejects.toThrow('Unknown node "prod": known nodes are "build", "test".');
    await expect(engine.exec({ host: "node", command: "true" }, ctx))
      .rejects.toThrow('exec host "node" needs the node parameter: known nodes are "build", "test".');
  });

  it("refuses a node whose host key is not the configured one", async () => {
    const other = readFileSync(`${sshd.dir}/user_key.pub`, "utf8");
    const { engine } = sshEngine({ build: { ...node(), hostKey: other } });
    await expect(engine.exec({ host: "node", command: "true" }, ctx)).rejects.toThrow(/Could not connect to node "build"/);
  });

  it("refuses a node configured without host key checking or credentials", () => {
    const { hostKey: _key, ...unchecked } = node();
    expect(() => createSshExecutor({ nodes: { a: unchecked } })).toThrow(messages.nodeHostKeyRequired("a"));
    const { privateKey: _pk, ...anonymous } = node();
    expect(() => createSshExecutor({ nodes: { a: anonymous } })).toThrow(messages.nodeAuthRequired("a"));
  });

  it("pools one connection per node and closes it on dispose", async () => {
    const { engine, executor } = sshEngine();
    const first = textOf(await engine.exec({ host: "node", command: "echo $SSH_CONNECTION" }, ctx)).trim();
    const second = textOf(await engine.exec({ host: "node", command: "echo $SSH_CONNECTION" }, ctx)).trim();
    expect(second).toBe(first);
    const clientPort = Number(first.split(" ")[1]);
    expect(establishedLocalPorts()).toContain(clientPort);
    await (executor as SshExecutor).dispose();
    expect(await waitUntil(() => !establishedLocalPorts().includes(clientPort), 5_000)).toBe(true);
  });

  it("fails a running session with a clear reason when the connection drops", async () => {
    const marker = markerSeconds();
    const { engine } = sshEngine();
    const started = await engine.exec({ host: "node", command: `sleep ${marker}`, background: true }, ctx);
    expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
    onCleanUp(() => killAll(processesWith(marker)));
    killAll(connectionServers());
    const done = await engine.process({ action: "poll", sessionId: sessionIdOf(started), timeout: 10_000 }, ctx);
    expect(done.details).toMatchObject({ status: "failed", exitCode: null, exitSignal: null });
    expect(textOf(done)).toContain(messages.sshConnectionLost("build").trim());
  });
});

/** Local ports of established TCP connections to the fixture's sshd. */
function establishedLocalPorts(): number[] {
  const ports: number[] = [];
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (!local || !remote || state !== "01") continue;
    if (parseInt(remote.split(":")[1] ?? "", 16) === sshd.port) ports.push(parseInt(local.split(":")[1] ?? "", 16));
  }
  return ports;
}

/**
 * The fixture sshd's per-connection processes: its descendants named `sshd:` (the `[priv]` child and, when sshd runs
 * as a plain user, the session's `user@notty` child under it, which keeps the connection when only its parent dies).
 */
function connectionServers(): Array<{ pid: number }> {
  const listener = Number(readFileSync(`${sshd.dir}/sshd.pid`, "utf8"));
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      names.set(Number(name), readFileSync(`/proc/${name}/cmdline`, "latin1"));
    } catch {
      // ended while we read
    }
  }
  const descends = (pid: number): boolean => {
    for (let parent = parents.get(pid); parent !== undefined && parent > 1; parent = parents.get(parent)) {
      if (parent === listener) return true;
    }
    return false;
  };
  return [...parents.keys()].filter((pid) => descends(pid) && names.get(pid)?.startsWith("sshd:")).map((pid) => ({ pid }));
}
