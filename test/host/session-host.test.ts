// The session host (issue 33): the engine served to several clients, scopes as the identity, and every failure named
// with its exact text: a wrong token, a call before the greeting, an oversized request, the client and scope limits,
// a killed client, a killed host, a host lost during a call, and a host that restarted.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/index.js";
import { connectSessionHost, createSessionHost, type RemoteSessionEngine } from "../../src/host/index.js";
import {
  disposeEngines, isProcessAlive, killGroup, liveGroupMembers, sleep, tempDir, testEnv, waitForGroupsGone, waitUntil,
} from "../reliability/helpers.js";
import { TOKEN, processesRunning, rawConnection, startHost, startHostProgram, stopAll } from "./helpers.js";

const START_JOB = fileURLToPath(new URL("./fixtures/start-job.mjs", import.meta.url));
const remotes: RemoteSessionEngine[] = [];
const groups: number[] = [];

afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.dispose()));
  await stopAll();
  for (const pgid of groups.splice(0)) killGroup(pgid); // only what a failing test left behind
  await disposeEngines();
});

async function client(socketPath: string, token = TOKEN): Promise<RemoteSessionEngine> {
  const remote = await connectSessionHost({ socketPath, token });
  remotes.push(remote);
  return remote;
}

async function failureOf(promise: Promise<unknown>): Promise<ExecProcessError> {
  try {
    await promise;
  } catch (error) {
    if (ExecProcessError.is(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const LOST_MARKER = `lost-call-${process.pid}`;

const idOf = (result: { details: object }): string => String((result.details as Record<string, unknown>)["sessionId"]);
const pidOf = (result: { details: object }): number => Number((result.details as Record<string, unknown>)["pid"]);

describe("the engine through a session host", () => {
  it("serves exec and process, and hands each queued exit event to exactly one of two clients that drain at once", async () => {
    const host = await startHost();
    const [a, b] = [await client(host.socketPath), await client(host.socketPath)];
    const started = await a.exec({ command: "echo built", background: true }, { scopeKey: "thread:T" });
    await waitUntil(() => host.engine.peekSystemEvents("thread:T").length === 1, 10_000);
    const polled = await b.process({ action: "log", sessionId: idOf(started) }, { scopeKey: "thread:T" });
    expect(polled.content[0].text).toBe("built");
    const [fromA, fromB] = await Promise.all([a.drainSystemEvents("thread:T"), b.drainSystemEvents("thread:T")]);
    expect([...fromA, ...fromB].map((event) => event.text)).toEqual([`Exec completed (${idOf(started).slice(0, 8)}, code 0) :: built`]);
    expect([fromA.length, fromB.length].sort()).toEqual([0, 1]);
  });

  it("sends progress updates during a foreground call and aborts a call whose signal fires", async () => {
    const host = await startHost();
    const remote = await client(host.socketPath);
    const updates: string[] = [];
    const result = await remote.exec(
      { command: "echo first; sleep 0.5; echo second", yieldMs: 5_000 },
      { scopeKey: "s", onUpdate: (partial) => void updates.push(partial.content[0].text) },
    );
    expect(result.content[0].text).toBe("first\nsecond");
    expect(updates[0]).toBe("first\n");
    const aborted = await failureOf(remote.exec({ command: "sleep 30", yieldMs: 20_000 }, { scopeKey: "s", signal: AbortSignal.timeout(300) }));
    expect(aborted.code).toBe("aborted");
    expect(await waitUntil(() => host.engine.liveSessionIds().length === 0, 10_000)).toBe(true);
  });

  it("keeps a scope's sessions when its client detaches, and shows them to the next client of that scope", async () => {
    const host = await startHost();
    const first = await client(host.socketPath);
    const job = await first.exec({ command: "sleep 30", background: true }, { scopeKey: "thread:T" });
    groups.push(pidOf(job));
    await first.dispose();
    expect(first.disposed).toBe(true);
    expect(host.engine.liveSessionIds()).toEqual([idOf(job)]);
    const next = await client(host.socketPath);
    const list = await next.process({ action: "list" }, { scopeKey: "thread:T" });
    expect(list.details["sessions"]).toEqual([expect.objectContaining({ sessionId: idOf(job), status: "running" })]);
    const other = await next.process({ action: "list" }, { scopeKey: "thread:U" });
    expect(other.details["sessions"]).toEqual([]);
    await next.process({ action: "kill", sessionId: idOf(job) }, { scopeKey: "thread:T" });
    expect(await waitForGroupsGone([pidOf(job)], 10_000)).toEqual([]);
  });

  it("listens on a socket only its owner may open, in a folder only its owner may enter, removed at close", async () => {
    const host = await startHost();
    expect(statSync(host.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(host.socketPath)).mode & 0o777).toBe(0o700);
    await host.close();
    expect(existsSync(dirname(host.socketPath))).toBe(false);
  });
});

describe("refusals, with their texts", () => {
  it("refuses a wrong token and closes that connection; another client keeps working", async () => {
    const host = await startHost();
    const good = await client(host.socketPath);
    const refused = await failureOf(connectSessionHost({ socketPath: host.socketPath, token: "not-the-token-at-all" }));
    expect(refused.code).toBe("session-host-refused");
    expect(refused.message).toBe(
      'Session host "exec-process-host" refused the connection: the token does not match the host\'s (EXEC_PROCESS_HOST_TOKEN or the host\'s token file).',
    );
    const result = await good.exec({ command: "echo still here" }, { scopeKey: "s" });
    expect(result.content[0].text).toBe("still here");
  });

  it("answers a call before the greeting with an error and closes the connection", async () => {
    const host = await startHost();
    const raw = await rawConnection(host.socketPath);
    raw.send({ jsonrpc: "2.0", id: 1, method: "exec", params: { callId: 1, scopeKey: "s", params: { command: "touch /tmp/x" } } });
    const answer = await raw.next();
    expect(answer["error"]).toMatchObject({
      code: -32000, message: 'Session host "exec-process-host" refused the connection: the client called before it authenticated.',
    });
    await raw.closed;
    expect(host.engine.liveSessionIds()).toEqual([]);
  });

  it("refuses an oversized request unread, with its id, and the connection goes on", async () => {
    const host = await startHost({ maxRequestBytes: 2_000 });
    const raw = await rawConnection(host.socketPath);
    raw.send({ jsonrpc: "2.0", id: 1, method: "hello", params: { token: TOKEN, protocolVersion: 1 } });
    expect((await raw.next())["result"]).toMatchObject({ name: "exec-process-host" });
    raw.send({ jsonrpc: "2.0", id: 7, method: "exec", params: { callId: 2, scopeKey: "s", params: { command: `echo ${"x".repeat(5_000)}` } } });
    const refused = await raw.next();
    expect(refused).toMatchObject({
      id: 7,
      error: {
        code: -32600,
        message: "Request too large: this JSON-RPC message is over the server's limit of 2000 bytes, so it was not read. "
          + "Send less in one call: write long content to a file and pass its path instead.",
      },
    });
    raw.send({ jsonrpc: "2.0", id: 8, method: "liveSessionIds", params: {} });
    expect(await raw.next()).toMatchObject({ id: 8, result: [] });
    const remote = await client(host.socketPath);
    const tooLarge = await failureOf(remote.exec({ command: `echo ${"y".repeat(5_000)}` }, { scopeKey: "s" }));
    expect(tooLarge.code).toBe("request-too-large");
  });

  it("refuses a client over maxClients with the limit's text; the others keep working, and a freed place is taken", async () => {
    const host = await startHost({ maxClients: 1 });
    const first = await client(host.socketPath);
    const refused = await failureOf(connectSessionHost({ socketPath: host.socketPath, token: TOKEN }));
    expect(refused.message).toBe(
      'Session host "exec-process-host" already serves 1 clients, its limit (--max-clients 1). Retry once a worker has disconnected, or raise the limit.',
    );
    expect((await first.exec({ command: "echo ok" }, { scopeKey: "s" })).content[0].text).toBe("ok");
    await first.dispose();
    await waitUntil(() => host.clientCount() === 0, 5_000);
    const second = await client(host.socketPath);
    expect((await second.exec({ command: "echo next" }, { scopeKey: "s" })).content[0].text).toBe("next");
  });

  it("refuses a scope over maxScopesPerClient with the limit's text; the client's other scopes keep working", async () => {
    const host = await startHost({ maxScopesPerClient: 2 });
    const remote = await client(host.socketPath);
    await remote.exec({ command: "true" }, { scopeKey: "one" });
    await remote.exec({ command: "true" }, { scopeKey: "two" });
    const refused = await failureOf(remote.exec({ command: "true" }, { scopeKey: "three" }));
    expect(refused.message).toBe(
      'Session host "exec-process-host" allows one client at most 2 scopes (--max-scopes-per-client 2), and this client has used them all. '
        + "Reuse a scope (agent name or thread), or raise the limit.",
    );
    expect((await remote.exec({ command: "echo two" }, { scopeKey: "two" })).content[0].text).toBe("two");
    const other = await client(host.socketPath);
    expect((await other.exec({ command: "echo three" }, { scopeKey: "three" })).content[0].text).toBe("three");
  });
});

describe("failures of the processes around the host", () => {
  it("a killed client leaves its job running; the next client of the scope polls it and drains its exit event", async () => {
    const host = await startHost();
    const starter = spawn(process.execPath, [START_JOB, host.socketPath, "thread:T", "sleep 1; echo done"], {
      env: { ...testEnv(), EXEC_PROCESS_HOST_TOKEN: TOKEN }, stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve) => starter.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))));
    const { sessionId, pid } = JSON.parse(line) as { sessionId: string; pid: number };
    groups.push(pid);
    starter.kill("SIGKILL");
    await new Promise((resolve) => starter.once("exit", resolve));
    expect(liveGroupMembers(pid).length).toBeGreaterThan(0);
    const next = await client(host.socketPath);
    await waitUntil(() => host.engine.peekSystemEvents("thread:T").length === 1, 10_000);
    expect((await next.drainSystemEvents("thread:T")).map((event) => event.text)).toEqual([`Exec completed (${sessionId.slice(0, 8)}, code 0) :: done`]);
    const poll = await next.process({ action: "poll", sessionId }, { scopeKey: "thread:T" });
    expect(poll.details["status"]).toBe("completed");
  });

  it("a killed host: the next call says the host cannot be reached, naming it", async () => {
    const program = await startHostProgram();
    const remote = await client(program.socketPath);
    const job = await remote.exec({ command: "sleep 30", background: true }, { scopeKey: "s" });
    groups.push(pidOf(job)); // a host killed with SIGKILL cannot end its jobs: the test does
    program.child.kill("SIGKILL");
    await program.exited;
    expect(await waitUntil(() => !remote.connected, 5_000)).toBe(true); // a call sent before would be "lost", below
    const failure = await failureOf(remote.process({ action: "poll", sessionId: idOf(job) }, { scopeKey: "s" }));
    expect(failure.code).toBe("session-host-unreachable");
    expect(failure.message).toBe(
      'Session host "exec-process-host" cannot be reached: nothing is listening at its address. '
        + "Start it again (exec-process-host) and retry; the sessions of a host that stopped are gone.",
    );
  });

  it("a host lost during a call: the call says the connection was lost and the command may still run", async () => {
    const program = await startHostProgram();
    const remote = await client(program.socketPath);
    const call = failureOf(remote.exec({ command: `sleep 30; echo ${LOST_MARKER}`, yieldMs: 20_000 }, { scopeKey: "s" }));
    await sleep(500);
    program.child.kill("SIGKILL");
    const failure = await call;
    expect(failure.code).toBe("session-host-lost");
    expect(failure.message).toBe(
      'The connection to session host "exec-process-host" was lost during this call. '
        + "The command may still be running there: list or poll the session once the host answers again.",
    );
    groups.push(...processesRunning(LOST_MARKER).map((entry) => entry.pgid)); // the host killed with SIGKILL could not end it
  });

  it("a host that restarted: the scope's next call says its sessions are gone (never an unknown session), then calls go on", async () => {
    const socketPath = `${tempDir("host-socket-")}/host.sock`;
    const first = await startHostProgram(["--socket", socketPath]);
    const remote = await client(socketPath);
    const job = await remote.exec({ command: "sleep 30", background: true }, { scopeKey: "thread:T" });
    groups.push(pidOf(job));
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual([0, null]);
    expect(await waitForGroupsGone([pidOf(job)], 10_000)).toEqual([]); // the host's shutdown ended its job
    expect(existsSync(socketPath)).toBe(false);
    await startHostProgram(["--socket", socketPath]);
    const failure = await failureOf(remote.process({ action: "poll", sessionId: idOf(job) }, { scopeKey: "thread:T" }));
    expect(failure.code).toBe("session-host-restarted");
    expect(failure.message).toBe(
      'Session host "exec-process-host" restarted: the sessions of scope "thread:T" are gone, with their output and exit notices '
        + "(sessions live in the host's memory). Start again what is still needed.",
    );
    expect((await remote.exec({ command: "echo again" }, { scopeKey: "thread:T" })).content[0].text).toBe("again");
    expect(isProcessAlive(pidOf(job))).toBe(false);
  });
});

describe("exec-process-host, the program", () => {
  it("takes no token on its command line, and writes a generated one to a private file", async () => {
    const refused = spawn(process.execPath, [fileURLToPath(new URL("../../bin/exec-process-host.mjs", import.meta.url)), "--token", "secret"], {
      env: testEnv(), stdio: ["ignore", "pipe", "pipe"],
    });
    const code = await new Promise((resolve) => refused.once("exit", resolve));
    expect(code).toBe(2);
    const program = await startHostProgram([], { EXEC_PROCESS_HOST_TOKEN: "" });
    const tokenFile = `${dirname(program.socketPath)}/token`;
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    program.child.kill("SIGTERM");
    expect(await program.exited).toEqual([0, null]);
    expect(existsSync(dirname(program.socketPath))).toBe(false);
  });
});

describe("TCP and TLS", () => {
  it("serves TCP on a loopback address, and refuses another address without TLS, naming the option", async () => {
    const host = await createSessionHost({ token: TOKEN, listen: { host: "127.0.0.1", port: 0 }, engine: { cwd: tempDir(), env: testEnv() } });
    try {
      expect(host.address).toMatchObject({ kind: "tcp", host: "127.0.0.1", tls: undefined });
      const port = (host.address as { port: number }).port;
      const remote = await connectSessionHost({ url: `tcp://127.0.0.1:${port}`, token: TOKEN });
      remotes.push(remote);
      expect((await remote.exec({ command: "echo over tcp" }, { scopeKey: "s" })).content[0].text).toBe("over tcp");
    } finally {
      await host.close();
    }
    const refused = await failureOf(createSessionHost({ token: TOKEN, listen: { host: "0.0.0.0", port: 0 } }));
    expect(refused.code).toBe("invalid-option");
    expect(refused.message).toContain("listen.host");
  });

  it("serves TLS with a certificate, and a client that trusts it gets through", async () => {
    const dir = tempDir("host-tls-");
    const made = spawnSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "1",
      "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ], { stdio: "ignore" });
    expect(made.status).toBe(0);
    const cert = readFileSync(`${dir}/cert.pem`);
    const host = await createSessionHost({
      token: TOKEN, listen: { host: "127.0.0.1", port: 0, tls: { cert, key: readFileSync(`${dir}/key.pem`) } }, engine: { cwd: tempDir(), env: testEnv() },
    });
    try {
      const port = (host.address as { port: number }).port;
      const untrusting = await failureOf(connectSessionHost({ url: `tls://127.0.0.1:${port}`, token: TOKEN }));
      expect(untrusting.code).toBe("session-host-unreachable");
      const remote = await connectSessionHost({ url: `tls://127.0.0.1:${port}`, token: TOKEN, tls: { ca: cert } });
      remotes.push(remote);
      expect((await remote.exec({ command: "echo over tls" }, { scopeKey: "s" })).content[0].text).toBe("over tls");
    } finally {
      await host.close();
    }
  });
});

describe("a client that has not authenticated", () => {
  it("may send at most 64 KiB in a message, and more connections than 16 of its kind are closed; clients go on", async () => {
    const host = await startHost();
    const good = await client(host.socketPath);
    const raw = await rawConnection(host.socketPath);
    raw.send({ jsonrpc: "2.0", id: 3, method: "hello", params: { token: "x".repeat(70_000), protocolVersion: 1 } });
    expect(await raw.next()).toMatchObject({ id: 3, error: { code: -32600, message: expect.stringContaining("limit of 65536 bytes") } });
    const idle = await Promise.all(Array.from({ length: 16 }, () => rawConnection(host.socketPath)));
    const extra = await rawConnection(host.socketPath);
    await extra.closed;
    expect((await good.exec({ command: "echo served" }, { scopeKey: "s" })).content[0].text).toBe("served");
    for (const connection of [raw, ...idle]) connection.socket.destroy();
  });
});

describe("watches through the host (issue 34)", () => {
  it("a watch set by one client queues its match for the scope, and another client drains it", async () => {
    const host = await startHost();
    const [a, b] = [await client(host.socketPath), await client(host.socketPath)];
    const job = await a.exec({ command: "sleep 0.3; echo server ready; sleep 5", background: true }, { scopeKey: "thread:T" });
    groups.push(pidOf(job));
    const watched = await a.watch({ sessionId: idOf(job), pattern: "ready" }, { scopeKey: "thread:T" });
    expect(watched.details).toMatchObject({ sessionId: idOf(job) });
    await waitUntil(() => host.engine.peekSystemEvents("thread:T").length === 1, 10_000);
    expect((await b.drainSystemEvents("thread:T")).map((event) => event.text)).toEqual([`Output matched (${idOf(job)}): server ready`]);
  });
});

describe("a host killed with SIGKILL", () => {
  it("leaves its jobs to the next host on its socket, which ends them before it listens", async () => {
    const socketPath = `${tempDir("host-socket-")}/host.sock`;
    const first = await startHostProgram(["--socket", socketPath]);
    const remote = await client(socketPath);
    const job = await remote.exec({ command: "sleep 30", background: true }, { scopeKey: "s" });
    groups.push(pidOf(job));
    first.child.kill("SIGKILL");
    await first.exited;
    expect(liveGroupMembers(pidOf(job)).length).toBeGreaterThan(0); // nothing could end it
    const next = await startHostProgram(["--socket", socketPath]);
    expect(await waitForGroupsGone([pidOf(job)], 10_000)).toEqual([]);
    expect(next.stderr()).toContain("exec-process-host: ended 2 processes that a killed host left running on this socket");
    next.child.kill("SIGTERM");
    expect(await next.exited).toEqual([0, null]);
    expect(existsSync(`${socketPath}.instance`)).toBe(false); // a clean end leaves nothing to take over
  });
});

describe("a host that does not answer", () => {
  it("fails the connection after connectTimeoutMs with the host named, and closes its socket", async () => {
    const socketPath = `${tempDir("silent-host-")}/host.sock`;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const silent = createServer((socket) => socket.resume().once("close", () => closed())); // reads, so it sees the end
    await new Promise<void>((resolve) => silent.listen(socketPath, resolve));
    try {
      const failure = await failureOf(connectSessionHost({ socketPath, token: TOKEN, connectTimeoutMs: 300 }));
      expect(failure.code).toBe("session-host-unreachable");
      expect(failure.message).toBe(
        'Session host "exec-process-host" cannot be reached: it did not answer in time. '
          + "Start it again (exec-process-host) and retry; the sessions of a host that stopped are gone.",
      );
      await connectionClosed; // the client gave its connection up
    } finally {
      silent.close();
    }
  });
});
