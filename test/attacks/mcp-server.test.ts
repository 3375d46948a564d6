// Issue 32, the MCP server's attacks (7, 8, 9), as a hostile client would make them: each test makes the attack,
// asserts that it fails with the documented answer, and that the host is unharmed afterwards (the server answers,
// no process with the test's marker is left, memory stays bounded).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { DEFAULT_MAX_SESSIONS, MAX_REQUEST_BYTES } from "../../mcp/options.js";
import {
  markerProcessesNow, processesWithMarker, SERVER_BIN, serverEnv, startHttpServer, testWorkspace, until, type StartedHttpServer,
} from "../mcp/helpers.js";

let workspace: ReturnType<typeof testWorkspace>;
const servers: Array<{ stop(): unknown }> = [];

beforeAll(() => {
  workspace = testWorkspace();
});
beforeEach(() => {
  workspace.marker = randomUUID();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  const left = markerProcessesNow(workspace.marker);
  for (const pid of left) process.kill(pid, "SIGKILL"); // a failed test's own leftovers
  expect(left).toEqual([]);
});
afterAll(() => workspace.remove());

const PROTOCOL_VERSION = "2025-06-18";
const INITIALIZE = {
  jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "attacker", version: "1" } },
};

// ---- attack 7: unbounded sessions ----

interface RawAnswer { status: number; sessionId: string | undefined; body: string }

/** One raw POST to the server: resolves with the status, the session id and the body (up to the first SSE event). */
function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL_VERSION, ...headers },
    }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
        if (body.includes("\n\n")) response.destroy(); // the answer, on an event stream
      });
      const done = (): void => resolve({ status: response.statusCode ?? 0, sessionId: response.headers["mcp-session-id"] as string | undefined, body });
      response.once("end", done);
      response.once("close", done);
    });
    request.once("error", reject);
    request.end(JSON.stringify(message));
  });
}

/** `count` initialize requests, `parallel` at a time, in the order they were sent. */
async function initializeMany(url: string, count: number, headers: Record<string, string> = {}, parallel = 50): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = [];
  for (let start = 0; start < count; start += parallel) {
    answers.push(...await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, () => post(url, INITIALIZE, headers))));
  }
  return answers;
}

/** The server's resident memory in kB, from /proc/<pid>/status. */
function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
}

async function http(args: string[]): Promise<StartedHttpServer> {
  const server = await startHttpServer(["--cwd", workspace.cwd, ...args]);
  servers.push(server);
  return server;
}

describe("attack 7: unbounded sessions", () => {
  it("attack 7: 1000 sessions opened without a token are all refused with 401, since the server made a token of its own", async () => {
    const server = await http([]);
    const answers = await initializeMany(server.url, 1000);
    const unauthorized = new ExecProcessError({ code: "http-request-refused", reason: "token-required" }).message;
    expect(answers.filter((answer) => answer.status === 401 && JSON.parse(answer.body).error.message === unauthorized)).toHaveLength(1000);
    expect(answers.filter((answer) => answer.sessionId !== undefined)).toEqual([]);
    // unharmed: the token's owner still gets a session
    const owned = await post(server.url, INITIALIZE, server.auth);
    expect(owned.status).toBe(200);
    expect(owned.body).toContain('"serverInfo":{"name":"exec-process-mcp"');
  });

  it("attack 7: 1000 sessions opened with --no-auth stop at the default --max-sessions of 32, the rest refused with 503 naming the limit", async () => {
    const server = await http(["--no-auth"]);
    const before = rssKb(server.child.pid!);
    const answers = await initializeMany(server.url, 1000);
    const opened = answers.filter((answer) => answer.status === 200 && answer.sessionId !== undefined);
    const refused = answers.filter((answer) => answer.status === 503);
    expect([opened.length, refused.length]).toEqual([DEFAULT_MAX_SESSIONS, 1000 - DEFAULT_MAX_SESSIONS]);
    const text = "Service unavailable: this server already has 32 open MCP sessions, its limit (--max-sessions 32). End a session you " +
      "no longer use (DELETE /mcp with its Mcp-Session-Id) or wait until an idle one times out, then initialize again.";
    expect(messages.httpSessionLimit(DEFAULT_MAX_SESSIONS)).toBe(text);
    for (const answer of refused) expect(JSON.parse(answer.body)).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: text }, id: null });
    // closing one lets exactly one new one in
    const deleted = await fetch(server.url, { method: "DELETE", headers: { "Mcp-Session-Id": opened[0]!.sessionId! } });
    expect(deleted.status).toBe(200);
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
    expect((await post(server.url, INITIALIZE)).status).toBe(503);
    // unharmed: a session still answers, and 32 idle sessions cost little memory
    const call = await post(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "Mcp-Session-Id": opened[1]!.sessionId! });
    expect(call.body).toContain('"name":"exec"');
    // 32 idle sessions of about 73 KB each (issue 32's measure) and the 1000 requests' garbage: about 21 MB was measured;
    // 1000 sessions would add some 73 MB more
    expect(rssKb(server.child.pid!) - before).toBeLessThan(48 * 1024);
  });
});

// ---- attack 8: a client that leaves mid-call ----

describe("attack 8: a client that leaves mid-call", () => {
  it("attack 8: a client that disconnects during a foreground exec, without a cancel, has its process ended within seconds, and its session goes on", async () => {
    const server = await http(["--no-auth"]);
    const sessionId = (await post(server.url, INITIALIZE)).sessionId!;
    const headers = { "Mcp-Session-Id": sessionId };
    expect((await post(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
    const exec = { command: "sleep 60", env: { CONFORMANCE_SCENARIO: workspace.marker } };
    const leaving = httpRequest(server.url, {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    });
    leaving.on("error", () => undefined); // the socket we destroy
    leaving.end(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "exec", arguments: exec } }));
    await until(() => markerProcessesNow(workspace.marker, "sleep").length === 1, "the marked sleep's start");
    const left = Date.now();
    leaving.destroy(); // no notifications/cancelled, no DELETE: the client is just gone
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
    expect(Date.now() - left).toBeLessThan(5_000);
    // unharmed: the MCP session is not the connection, and it still serves its client
    const next = await post(server.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "exec", arguments: { command: "echo still-here" } } }, headers);
    expect(next.status).toBe(200);
    expect(next.body).toContain('"text":"still-here"');
  });
});

// ---- attack 9: a silent exit ----

/** The server over stdio with a raw client: JSON-RPC lines in, answers by id out. */
function stdioServer(): { child: ChildProcessWithoutNullStreams; answer(id: number | null): Promise<Record<string, unknown>>; send(text: string): void; exited: Promise<number | null>; stderr(): string } {
  const child = spawn(process.execPath, [SERVER_BIN, "--cwd", workspace.cwd], { env: serverEnv() });
  servers.push({ stop: () => child.exitCode === null && child.kill("SIGTERM") });
  const answers = new Map<unknown, Record<string, unknown>>();
  let pending = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      if ("id" in message) answers.set(message["id"], message);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  child.stdin.on("error", () => undefined); // a server that exits mid-write
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child, exited, stderr: () => stderr,
    send: (text) => void child.stdin.write(text),
    async answer(id: number | null) {
      await until(() => answers.has(id) || child.exitCode !== null, `the answer to request ${id}`);
      if (!answers.has(id)) throw new Error(`The server exited with ${child.exitCode} before answering ${id}:\n${stderr}`);
      return answers.get(id)!;
    },
  };
}

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const execLine = (id: number, command: string): string =>
  line({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "exec", arguments: { command } } });

describe("attack 9: a silent exit", () => {
  it("attack 9: a 10 MB JSON-RPC line on stdio gets error -32600 naming the limit, and the server answers the next request", async () => {
    const server = stdioServer();
    server.send(line(INITIALIZE));
    await server.answer(1);
    server.send(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    const before = rssKb(server.child.pid!);
    const text = "Request too large: this JSON-RPC message is over the server's limit of 4194304 bytes, so it was not read. " +
      "Send less in one call: write long content to a file and pass its path instead.";
    expect(new ExecProcessError({ code: "request-too-large", limitBytes: MAX_REQUEST_BYTES }).message).toBe(text);
    // 1 MB is within the limit: the tool itself refuses the command, as before
    server.send(execLine(2, `echo ${"a".repeat(1_000_000)}`));
    expect(await server.answer(2)).toMatchObject({ result: { isError: true, content: [{ type: "text", text: messages.argumentTooLarge("command", 1_000_005, 131_072) }] } });
    server.send(execLine(3, `echo ${"a".repeat(10_000_000)}`));
    expect(await server.answer(3)).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32600, message: text } });
    server.send(execLine(4, "echo after-10mb"));
    expect(await server.answer(4)).toMatchObject({ result: { content: [{ type: "text", text: "after-10mb" }] } });
    // a line that grows past the limit with no newline yet, then its newline, then a request that must be answered
    server.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"exec","arguments":{"command":"echo ${"b".repeat(3_000_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.send("b".repeat(3_000_000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.send(`"}}}\n${execLine(6, "echo after-unterminated")}`);
    expect(await server.answer(5)).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32600, message: text } });
    expect(await server.answer(6)).toMatchObject({ result: { content: [{ type: "text", text: "after-unterminated" }] } });
    // a line whose id comes after its 5 MB: refused with id null, as JSON-RPC answers a request it cannot read
    server.send(`{"jsonrpc":"2.0","method":"ping","params":{"pad":"${"c".repeat(5_000_000)}"},"id":7}\n`);
    server.send(line({ jsonrpc: "2.0", id: 8, method: "ping" }));
    expect(await server.answer(null)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: text } });
    expect(await server.answer(8)).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
    // memory bounded: the server holds at most one line of the limit (4 MiB) at a time, never a whole 10 MB line; the
    // bound, 16 times the limit, leaves room for the read chunks the GC has not freed yet (about 26 MB was measured)
    expect(rssKb(server.child.pid!) - before).toBeLessThan(16 * MAX_REQUEST_BYTES / 1024);
    expect(server.child.exitCode).toBeNull();
  });

  it("attack 9: a 100 MB line costs the server no more memory than one line of the limit", async () => {
    const server = stdioServer();
    server.send(line(INITIALIZE));
    await server.answer(1);
    const before = rssKb(server.child.pid!);
    const chunk = "d".repeat(1024 * 1024);
    server.send('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"');
    for (let sent = 0; sent < 100; sent += 1) server.send(chunk);
    server.send(`"}}\n${line({ jsonrpc: "2.0", id: 3, method: "ping" })}`);
    expect(await server.answer(2)).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(await server.answer(3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    // a buffered line would add its 100 MB; about 36 MB was measured (read chunks not yet collected)
    expect(rssKb(server.child.pid!) - before).toBeLessThan(16 * MAX_REQUEST_BYTES / 1024);
  });

  it("attack 9: a server whose client closed its stdout exits with code 1 and one line saying why, its processes ended", async () => {
    const server = stdioServer();
    server.send(line(INITIALIZE));
    await server.answer(1);
    server.send(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: {
      name: "exec", arguments: { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } },
    } }));
    await server.answer(2);
    await until(() => markerProcessesNow(workspace.marker, "sleep").length === 1, "the marked sleep's start");
    server.child.stdout.destroy(); // the client stops reading: the server's next write fails with EPIPE
    server.send(execLine(3, "echo into-the-void"));
    expect(await server.exited).toBe(1);
    const fatal = server.stderr().split("\n").filter((text) => text.includes("fatal"));
    expect(fatal).toEqual([
      "exec-process-mcp: fatal error: stdout: write EPIPE. Every MCP session ends with its processes; the server exits with code 1.",
    ]);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });
});
