// Attacks on the SSH executor (issue 20), each run through createSessionEngine({ executors: { node } }) against a
// real sshd on 127.0.0.1, checking the node afterwards in /proc: sshd's default MaxSessions 10 under parallel load,
// a login shell that prints before the command, secrets on remote command lines, a stalled connection, host-key
// forms, and dispose with live sessions or an unreachable node. Runs as root and as a plain user alike.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createSessionEngine, createSshExecutor, ExecProcessError, type LocalSessionEngine, type SshExecutorOptions, type SshNode,
} from "../../src/index.js";
import { sshdUnavailableReason, startSshd, type SshdFixture } from "../../scripts/sshd-fixture.mjs";
import {
  cleanUp, ctx, engineWith, killAll, markerSeconds, onCleanUp, pollUntilDone, processesWith, scratchDir, sessionIdOf, sleepers,
  textOf, waitUntil,
} from "../executors/helpers.js";
import { startStallProxy } from "./stall-proxy.js";

const unavailable = sshdUnavailableReason();
if (unavailable) console.warn(`SSH security tests skipped: ${unavailable}`);
const describeSsh = unavailable ? describe.skip : describe;

const BANNER = { stdout: "conda: (base) environment activated\n", stderr: "nvm: now using node v20.20.2 (npm v11)\n" };
/** The executor's dispose grace is 2 s; what a test allows for it, with some slack for a loaded machine. */
const DISPOSE_BOUND_MS = 2_600;
/**
 * By when dispose opens its fresh connection to a node whose kills go unanswered: 150 ms in (node-link.ts), where
 * waiting for the kill wait's end would take 1 s; the rest is slack for a loaded machine.
 */
const SPARE_OPENED_BOUND_MS = 700;

let plain: SshdFixture;
let noisy: SshdFixture;
/** Set when sshd cannot give sessions a terminal here; only a plain user's sshd may lack them (root's must not). */
let terminalUnavailable: string | undefined;

describeSsh("the SSH executor under attack", () => {
  beforeAll(async () => {
    // sshd's own default MaxSessions (10); `noisy` also prints a banner at login and takes 300 ms to start a command.
    [plain, noisy] = await Promise.all([
      startSshd({ maxSessions: 10 }),
      startSshd({ maxSessions: 10, loginStartup: { ...BANNER, delayMs: 300 } }),
    ]);
    terminalUnavailable = process.getuid?.() === 0 ? undefined : plain.terminalUnavailableReason();
    if (terminalUnavailable) console.warn(`SSH security tests with a terminal skipped: ${terminalUnavailable}`);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), noisy?.stop()]);
  });
  afterEach(cleanUp);

  const nodeOf = (sshd: SshdFixture, overrides: Partial<SshNode> = {}): SshNode => ({
    host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKey, ...overrides,
  });

  function sshEngine(node: SshNode, options: Partial<SshExecutorOptions> = {}) {
    const executor = createSshExecutor({ ...options, nodes: { build: node } });
    onCleanUp(() => executor.dispose());
    return { executor, engine: engineWith("node", executor, scratchDir("ssh-sec-")) };
  }

  async function startSleepers(engine: LocalSessionEngine, marker: string, count: number): Promise<string[]> {
    onCleanUp(() => killAll(processesWith(marker)));
    const started = await Promise.allSettled(Array.from({ length: count }, () =>
      engine.exec({ host: "node", command: `sleep ${marker}`, background: true }, ctx)));
    const failures = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    expect(failures, "every exec starts").toEqual([]);
    expect(await waitUntil(() => sleepers(marker) === count, 10_000), `${count} remote sleeps run`).toBe(true);
    return started.map((result) => sessionIdOf((result as PromiseFulfilledResult<Awaited<ReturnType<LocalSessionEngine["exec"]>>>).value));
  }

  describe("finding 1: sshd's default MaxSessions 10", () => {
    it("starts 12 concurrent background jobs and kill ends every one of them", async () => {
      const marker = markerSeconds();
      const { engine } = sshEngine(nodeOf(plain));
      const ids = await startSleepers(engine, marker, 12);
      const answers = await Promise.all(ids.map((sessionId) => engine.process({ action: "kill", sessionId }, ctx)));
      expect(answers.map(textOf)).toEqual(ids.map(() => expect.stringContaining("Termination requested")));
      expect(await waitUntil(() => processesWith(marker).length === 0, 10_000), JSON.stringify(processesWith(marker))).toBe(true);
      for (const sessionId of ids) {
        expect((await pollUntilDone(engine, sessionId)).details).toMatchObject({ exitSignal: "SIGTERM", exitReason: "manual-cancel" });
      }
    });

    it("runs 40 parallel execs, as an agent's parallel tool calls do, and every one succeeds", async () => {
      const { engine } = sshEngine(nodeOf(plain));
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) =>
        engine.exec({ host: "node", command: `echo call-${i}` }, ctx)));
      const outcomes = results.map((result) => (result.status === "fulfilled" ? textOf(result.value).trim() : String(result.reason)));
      expect(outcomes).toEqual(Array.from({ length: 40 }, (_, i) => `call-${i}`));
    });

    it("learns the server's limit from a refused channel when maxSessionsPerConnection is set above it", async () => {
      const marker = markerSeconds();
      const { engine } = sshEngine(nodeOf(plain), { maxSessionsPerConnection: 20, maxConnections: 1 });
      onCleanUp(() => killAll(processesWith(marker)));
      const calls = Array.from({ length: 12 }, () => engine.exec({ host: "node", command: `sleep ${marker}`, background: true }, ctx));
      // One connection, sshd's 10 channels: the control channel and 9 commands; the other 3 wait, none fails.
      expect(await waitUntil(() => sleepers(marker) === 9, 10_000), `${sleepers(marker)} remote sleeps`).toBe(true);
      const first = await Promise.all(calls.slice(0, 9));
      const kill = (results: typeof first) =>
        Promise.all(results.map((result) => engine.process({ action: "kill", sessionId: sessionIdOf(result) }, ctx)));
      await kill(first.slice(0, 3));
      const rest = await Promise.all(calls.slice(9));
      expect(rest.map((result) => result.details.status)).toEqual(["running", "running", "running"]);
      await kill([...first.slice(3), ...rest]);
      expect(await waitUntil(() => processesWith(marker).length === 0, 10_000), JSON.stringify(processesWith(marker))).toBe(true);
    });

    it("says the node refused a channel, not that the credentials are wrong", async () => {
      const closed = await startSshd({ maxSessions: 0 }); // sshd: no sessions at all on a connection
      onCleanUp(() => closed.stop());
      const { engine } = sshEngine(nodeOf(closed));
      const error = await engine.exec({ host: "node", command: "true" }, ctx).then(() => undefined, (reason: unknown) => reason);
      expect(ExecProcessError.is(error, "node-channel-refused"), String(error)).toBe(true);
      expect(String(error)).toContain('Node "build" refused a new SSH channel');
      expect(String(error)).toContain("MaxSessions");
      expect(String(error)).not.toContain("credentials");
    });
  });

  describe("finding 2: output of the login shell's startup", () => {
    it("keeps the banner and the pid frame out of the output, on stdout and on stderr", async () => {
      const { engine } = sshEngine(nodeOf(noisy));
      const piped = await engine.exec({ host: "node", command: "echo out; echo err >&2" }, ctx);
      expect(textOf(piped).split("\n").sort()).toEqual(["err", "out"]);
    });

    it("keeps the banner and the pid frame out of a terminal's output", async ({ skip }) => {
      if (terminalUnavailable) skip(terminalUnavailable);
      const { engine } = sshEngine(nodeOf(noisy));
      const terminal = await engine.exec({ host: "node", command: "echo out", pty: true }, ctx);
      expect(textOf(terminal)).toBe("out");
    });

    it("kill still ends the remote group: the reported pid leads the remote session", async () => {
      const marker = markerSeconds();
      const { engine } = sshEngine(nodeOf(noisy));
      onCleanUp(() => killAll(processesWith(marker)));
      const started = await engine.exec({ host: "node", command: `sleep ${marker} & sleep ${marker}`, background: true }, ctx);
      expect(await waitUntil(() => sleepers(marker) === 2, 10_000)).toBe(true);
      const sessions = processesWith(marker).filter((p) => p.cmdline.startsWith("sleep")).map((p) => sessionOf(p.pid));
      expect(sessions).toEqual([started.details.pid, started.details.pid]);
      await engine.process({ action: "kill", sessionId: sessionIdOf(started) }, ctx);
      expect(await waitUntil(() => processesWith(marker).length === 0, 10_000), JSON.stringify(processesWith(marker))).toBe(true);
    });

    it("a timeout still ends the remote group", async () => {
      const marker = markerSeconds();
      const { engine } = sshEngine(nodeOf(noisy));
      onCleanUp(() => killAll(processesWith(marker)));
      const result = await engine.exec({ host: "node", command: `sleep ${marker} & sleep ${marker}`, timeoutSeconds: 1 }, ctx);
      expect(result.details).toMatchObject({ status: "failed", timedOut: true });
      expect(textOf(result)).not.toContain("conda");
      expect(await waitUntil(() => processesWith(marker).length === 0, 10_000), JSON.stringify(processesWith(marker))).toBe(true);
    });

    it("passes startup output over 64 KB through and says the pid is unknown", async () => {
      const flood = await startSshd({ loginStartup: { stdout: `${"x".repeat(79)}\n`.repeat(1_000) } });
      onCleanUp(() => flood.stop());
      const { engine } = sshEngine(nodeOf(flood));
      const result = await engine.exec({ host: "node", command: "echo done" }, ctx);
      expect(textOf(result)).toMatch(/^x{79}\n/); // passed through, not dropped
      expect(textOf(result)).toContain("done");
      expect(textOf(result)).toContain("the command's process id is unknown");
    });
  });

  describe("finding 3: the host environment and remote command lines", () => {
    const title = "sends only the call's env and forwardEnv, %s a terminal, and no value ever shows in a /proc/*/cmdline";
    it.for<[string, boolean]>([["without", false], ["with", true]])(title, async ([, pty], { skip }) => {
      if (pty && terminalUnavailable) skip(terminalUnavailable);
      const secret = (name: string): string => `${name}-${randomBytes(12).toString("hex")}`;
      const [callSecret, hostSecret, unforwarded] = [secret("call"), secret("host"), secret("unforwarded")];
      const executor = createSshExecutor({ nodes: { build: nodeOf(noisy) }, forwardEnv: ["FORWARDED_TOKEN"] });
      onCleanUp(() => executor.dispose());
      const engine = createSessionEngine({
        cwd: scratchDir("ssh-sec-"), executors: { node: executor },
        env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LANG: "C.UTF-8", FORWARDED_TOKEN: hostSecret, UNFORWARDED_TOKEN: unforwarded },
      });
      onCleanUp(() => engine.dispose());
      const watch = watchCommandLines([callSecret, hostSecret, unforwarded]);
      const command = 'printf "%s|%s|%s" "$CALL_TOKEN" "$FORWARDED_TOKEN" "${UNFORWARDED_TOKEN-unset}"';
      const result = await engine.exec({ host: "node", command, env: { CALL_TOKEN: callSecret }, pty }, ctx);
      const { seen, scans } = await watch.stop();
      expect(scans, "the watcher scanned /proc while the command started").toBeGreaterThan(10);
      expect(seen).toEqual([]);
      expect(textOf(result)).toBe(`${callSecret}|${hostSecret}|unset`);
      expect(envFilesHolding(callSecret)).toEqual([]);
    });
  });

  describe("finding 4: a stalled connection", () => {
    it("says the command may still run, and kills it when the node is connected again", async () => {
      const marker = markerSeconds();
      const proxy = await startStallProxy(plain.port);
      onCleanUp(() => proxy.close());
      const { engine } = sshEngine(nodeOf(plain, { port: proxy.port }), { keepaliveIntervalMs: 200 });
      onCleanUp(() => killAll(processesWith(marker)));
      const started = await engine.exec({ host: "node", command: `sleep ${marker}`, background: true }, ctx);
      expect(await waitUntil(() => sleepers(marker) === 1, 10_000)).toBe(true);
      proxy.stall();
      const lost = await pollUntilDone(engine, sessionIdOf(started));
      expect(lost.details).toMatchObject({ status: "failed", exitCode: null, exitSignal: null });
      expect(textOf(lost)).toContain('connection to node "build" lost');
      expect(textOf(lost)).toContain("may still be running on the node");
      expect(sleepers(marker), "the remote command outlived its connection").toBe(1);
      expect(textOf(await engine.exec({ host: "node", command: "echo reconnected" }, ctx)).trim()).toBe("reconnected");
      expect(await waitUntil(() => processesWith(marker).length === 0, 10_000), JSON.stringify(processesWith(marker))).toBe(true);
    });
  });

  describe("finding 5: hostKey forms", () => {
    it.each<[string, (key: { type: string; blob: string; port: number }) => string]>([
      ["a .pub line with a comment", ({ type, blob }) => `${type} ${blob} root@node`],
      ["a known_hosts line with [host]:port", ({ type, blob, port }) => `[127.0.0.1]:${port} ${type} ${blob}`],
      ["a known_hosts line with [host]:port and a comment", ({ type, blob, port }) => `[127.0.0.1]:${port} ${type} ${blob} node`],
      ["a known_hosts line with a bare host", ({ type, blob }) => `127.0.0.1 ${type} ${blob}`],
      ["ssh-keyscan output with a comment line", ({ type, blob, port }) => `# 127.0.0.1:${port} SSH-2.0\n[127.0.0.1]:${port} ${type} ${blob}\n`],
    ])("accepts %s", async (_, form) => {
      const [keyType = "", keyBlob = ""] = plain.hostKey.split(/\s+/);
      const { engine } = sshEngine(nodeOf(plain, { hostKey: form({ type: keyType, blob: keyBlob, port: plain.port }) }));
      expect(textOf(await engine.exec({ host: "node", command: "echo trusted" }, ctx)).trim()).toBe("trusted");
    });

    it.each(["", "   ", "not a key", "ssh-ed25519"])("refuses hostKey %j when the executor is created, naming hostKey", (hostKey) => {
      let error: unknown;
      try {
        createSshExecutor({ nodes: { build: nodeOf(plain, { hostKey }) } });
      } catch (caught) {
        error = caught;
      }
      expect(ExecProcessError.is(error, "node-misconfigured"), String(error)).toBe(true);
      expect(String(error)).toContain('SSH node "build": hostKey');
    });

    it("still refuses a server whose key is not the known_hosts line's", async () => {
      const [keyType = "", keyBlob = ""] = readFileSync(`${plain.dir}/user_key.pub`, "utf8").split(/\s+/);
      const { engine } = sshEngine(nodeOf(plain, { hostKey: `[127.0.0.1]:${plain.port} ${keyType} ${keyBlob}` }));
      await expect(engine.exec({ host: "node", command: "true" }, ctx)).rejects.toThrow("the server's host key is not the configured hostKey");
    });
  });

  describe("finding 6: dispose", () => {
    it("returns within the grace with 10 live sessions and leaves none running", async () => {
      const marker = markerSeconds();
      const { engine, executor } = sshEngine(nodeOf(plain));
      await startSleepers(engine, marker, 10);
      const elapsed = await timed(executor.dispose());
      expect(elapsed).toBeLessThan(DISPOSE_BOUND_MS);
      expect(await waitUntil(() => processesWith(marker).length === 0, 5_000), JSON.stringify(processesWith(marker))).toBe(true);
    });

    it("returns within the grace when the node stops answering", async () => {
      const marker = markerSeconds();
      const proxy = await startStallProxy(plain.port);
      onCleanUp(() => proxy.close());
      const { engine, executor } = sshEngine(nodeOf(plain, { port: proxy.port }));
      await startSleepers(engine, marker, 3);
      proxy.stall({ newConnections: true });
      expect(await timed(executor.dispose())).toBeLessThan(DISPOSE_BOUND_MS);
    });

    // Run 42 of issue 36: on a loaded machine the fresh connection's handshake missed what the kill wait had left of
    // the grace. So the fresh connection opens while the kills are still unanswered, long before the kill wait (1 s)
    // ends; a node that answers a new connection only after 500 ms stands in for a slow one.
    it.each<[string, { delayNewMs?: number }]>([
      ["when the node still answers", {}],
      ["also when the node is slow to answer a new connection", { delayNewMs: 500 }],
    ])("kills the sessions of a stalled connection over a fresh one %s", async (_, newConnections) => {
      const marker = markerSeconds();
      const proxy = await startStallProxy(plain.port);
      onCleanUp(() => proxy.close());
      const { engine, executor } = sshEngine(nodeOf(plain, { port: proxy.port }));
      await startSleepers(engine, marker, 3);
      proxy.stall(newConnections);
      const disposeStarted = Date.now();
      expect(await timed(executor.dispose())).toBeLessThan(DISPOSE_BOUND_MS);
      const fresh = proxy.acceptedAt.filter((at) => at >= disposeStarted).map((at) => at - disposeStarted);
      expect(fresh, "one fresh connection, opened while the kills were unanswered").toEqual([expect.any(Number)]);
      expect(fresh[0], "ms into dispose").toBeLessThan(SPARE_OPENED_BOUND_MS);
      expect(await waitUntil(() => processesWith(marker).length === 0, 5_000), JSON.stringify(processesWith(marker))).toBe(true);
    });
  });
});

/** The session id of a process (field 6 of /proc/<pid>/stat). */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
}

/** Milliseconds `work` takes, or a failing value after 10 s (an old dispose hung for longer). */
async function timed(work: Promise<unknown>): Promise<number> {
  const start = Date.now();
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  return Date.now() - start;
}

/** Scans every /proc/<pid>/cmdline, again and again until stopped, for any of `secrets`. */
function watchCommandLines(secrets: string[]): { stop(): Promise<{ seen: string[]; scans: number }> } {
  const seen = new Set<string>();
  let scans = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        let cmdline: string;
        try {
          cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1");
        } catch {
          continue; // ended while we read
        }
        for (const secret of secrets) if (cmdline.includes(secret)) seen.add(`${secret} in ${cmdline.replaceAll("\0", " ").slice(0, 200)}`);
      }
      scans += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { seen: [...seen], scans };
    },
  };
}

/** Environment files of the executor left in the node's temporary directory (sshd sets no TMPDIR) that hold `secret`. */
function envFilesHolding(secret: string): string[] {
  const dir = "/tmp";
  return readdirSync(dir).filter((name) => name.startsWith(".exec-process-env-")).filter((name) => {
    try {
      return readFileSync(join(dir, name), "utf8").includes(secret);
    } catch {
      return false;
    }
  });
}
