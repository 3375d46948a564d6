// exec-process-mcp over Streamable HTTP, driven by the MCP SDK's own Client: one scope per MCP session, the
// DNS-rebinding and token checks, and sessions that end with their processes.
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { request as httpRequest } from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { MAX_REQUEST_BYTES } from "../../mcp/options.js";
import {
  call, connectHttp, markerProcessesNow, processesWithMarker, SERVER_BIN, serverEnv, startHttpServer, testWorkspace, texts, until,
} from "./helpers.js";

const TOKEN = "interop-test-token";
const AUTH = { Authorization: `Bearer ${TOKEN}` };
let server: Awaited<ReturnType<typeof startHttpServer>>;
let workspace: ReturnType<typeof testWorkspace>;
const open: Array<Awaited<ReturnType<typeof connectHttp>>> = [];

async function session(): Promise<Awaited<ReturnType<typeof connectHttp>>> {
  const connected = await connectHttp(server.url, AUTH);
  open.push(connected);
  return connected;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/**
 * A raw initialize request, as a browser page or another client would send it; node:http, since fetch may not
 * set Host. Resolves with the status, the session id and the body (a JSON error, or the start of an event stream).
 */
function initialize(headers: Record<string, string>): Promise<{ status: number; sessionId: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
        if (body.includes("\n\n")) response.destroy(); // the initialize answer, on an event stream
      });
      const done = () => resolve({ status: response.statusCode ?? 0, sessionId: response.headers["mcp-session-id"] as string | undefined, body });
      response.once("end", done);
      response.once("close", done);
    });
    request.once("error", reject);
    request.end(INITIALIZE);
  });
}

const refused = (reason: "foreign-origin" | "foreign-host" | "token-required" | "session-unknown") =>
  new ExecProcessError({ code: "http-request-refused", reason }).message;

beforeAll(async () => {
  workspace = testWorkspace();
  server = await startHttpServer(["--cwd", workspace.cwd, "--token", TOKEN, "--allow-origin", "http://localhost:5173"]);
});

beforeEach(() => {
  workspace.marker = randomUUID(); // each test's processes, found by their own marker
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((connected) => connected.close()));
  const left = markerProcessesNow(workspace.marker);
  for (const pid of left) process.kill(pid, "SIGKILL"); // a failed test's own leftovers, so the next one starts clean
  expect(left).toEqual([]);
});

afterAll(async () => {
  await server?.stop();
  workspace?.remove();
});

describe("one scope per MCP session", () => {
  it("keeps one session's background sessions invisible to another, which can neither poll nor kill them", async () => {
    const [a, b] = [await session(), await session()];
    const started = await call(a.client, "exec", { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } });
    const sessionId = started.structuredContent!["sessionId"] as string;
    expect(texts(await call(b.client, "process", { action: "list" }))).toEqual([messages.NO_SESSIONS]);
    for (const [action, text] of [["poll", messages.noSession(sessionId)], ["kill", messages.noActiveSession(sessionId)]]) {
      const result = await call(b.client, "process", { action: action!, sessionId });
      expect(result.isError).toBe(true);
      expect(texts(result)).toEqual([text]);
    }
    const listed = await call(a.client, "process", { action: "list" });
    expect(listed.structuredContent).toMatchObject({ sessions: [{ sessionId, status: "running" }] });
    expect(markerProcessesNow(workspace.marker)).toContain(started.structuredContent!["pid"]);
    await call(a.client, "process", { action: "kill", sessionId });
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });

  it("ends a session's processes when the client deletes the session", async () => {
    const connected = await session();
    const started = await call(connected.client, "exec", { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } });
    expect(markerProcessesNow(workspace.marker)).toContain(started.structuredContent!["pid"]);
    const sessionId = connected.transport.sessionId!;
    await connected.transport.terminateSession();
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
    const stale = await fetch(server.url, { method: "GET", headers: { ...AUTH, "Mcp-Session-Id": sessionId, Accept: "text/event-stream" } });
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ error: { message: refused("session-unknown") } });
  });

  it("puts an exit event in front of the next result of its own session only", async () => {
    const [a, b] = [await session(), await session()];
    await call(a.client, "exec", { command: "echo http-event", background: true });
    const notice = await a.noticeContaining("http-event");
    expect(texts(await call(b.client, "exec", { command: "echo b" }))).toEqual(["b"]);
    expect(texts(await call(a.client, "exec", { command: "echo a" }))).toEqual([`System: ${notice.text}`, "a"]);
    expect(b.notices).toEqual([]);
  });
});

describe("who may connect", () => {
  it.each([
    ["a foreign Origin with 403", { ...AUTH, Origin: "http://evil.example" }, 403, refused("foreign-origin")],
    ["a Host that is not the server's (DNS rebinding) with 403", { ...AUTH, Host: "evil.example:80" }, 403, refused("foreign-host")],
    ["a request without the token with 401", {}, 401, refused("token-required")],
    ["a request with another token with 401", { Authorization: "Bearer wrong" }, 401, refused("token-required")],
  ])("refuses %s", async (_title, headers, status, message) => {
    const response = await initialize(headers as Record<string, string>);
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toMatchObject({ error: { message } });
  });

  it.each([
    ["the server's own origin", () => new URL(server.url).origin],
    ["an --allow-origin origin", () => "http://localhost:5173"],
    ["no Origin at all (a non-browser client)", () => undefined],
  ])("admits %s", async (_title, origin) => {
    const value = origin();
    const response = await initialize({ ...AUTH, ...(value ? { Origin: value } : {}) });
    expect(response.status).toBe(200);
    expect(response.body).toContain('"serverInfo":{"name":"exec-process-mcp"');
    const sessionId = response.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const deleted = await fetch(server.url, { method: "DELETE", headers: { ...AUTH, "Mcp-Session-Id": sessionId } });
    expect(deleted.status).toBe(200);
  });
});

describe("HTTP refusals outside MCP", () => {
  it("answers another path with 404 naming the endpoint", async () => {
    const response = await fetch(new URL("/other", server.url), { headers: AUTH });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { message: new ExecProcessError({ code: "http-request-refused", reason: "unknown-path" }).message } });
  });

  it("refuses a session's request body over 4 MiB with 413 naming the limit, and the session goes on", async () => {
    const connected = await session();
    const headers = { ...AUTH, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": connected.transport.sessionId! };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "exec", arguments: { command: "x".repeat(MAX_REQUEST_BYTES) } } });
    const response = await fetch(server.url, { method: "POST", headers, body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0", id: null, error: { code: -32000, message: new ExecProcessError({ code: "request-too-large", limitBytes: MAX_REQUEST_BYTES }).message },
    });
    expect(texts(await call(connected.client, "exec", { command: "echo after-413" }))).toEqual(["after-413"]);
  });

  it("exits with code 2 and one line naming --http when the port is taken", () => {
    const port = new URL(server.url).port;
    const run = spawnSync(process.execPath, [SERVER_BIN, "--http", port], { env: serverEnv(), encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`--http expects a port that 127.0.0.1 can listen on (got "${port}: EADDRINUSE").`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain("HTTP bearer token generated"); // the token file is made and removed unannounced
  });
});

describe("the token (issue 32: a token by default)", () => {
  it("is generated into a new file of mode 0600 in a folder of mode 0700, named but never shown, and deleted on stop", async () => {
    const generated = await startHttpServer(["--cwd", workspace.cwd]);
    try {
      const file = generated.tokenFile!;
      const token = readFileSync(file, "utf8");
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect([statSync(file).mode & 0o777, statSync(dirname(file)).mode & 0o777]).toEqual([0o600, 0o700]);
      expect(generated.stderr()).toContain(`exec-process-mcp: HTTP bearer token generated into ${file} (mode 0600, deleted when the server stops): ` +
        "send it as Authorization: Bearer <token>\n");
      expect(generated.stderr()).toMatch(/listening on \S+ \(bearer token required\)/);
      expect(generated.stderr()).not.toContain(token);
      const anonymous = await fetch(generated.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: INITIALIZE });
      expect(anonymous.status).toBe(401);
      const connected = await connectHttp(generated.url, generated.auth);
      expect(texts(await call(connected.client, "exec", { command: "echo with-token" }))).toEqual(["with-token"]);
      await connected.close();
    } finally {
      expect(await generated.stop()).toBe(0);
    }
    expect([existsSync(generated.tokenFile!), existsSync(dirname(generated.tokenFile!))]).toEqual([false, false]);
  });

  it("goes to the new file --token-file names; an existing file is refused, naming --token-file", async () => {
    const taken = join(workspace.cwd, "taken-token");
    writeFileSync(taken, "old");
    const refusedRun = spawnSync(process.execPath, [SERVER_BIN, "--http", "0", "--token-file", taken], { env: serverEnv(), encoding: "utf8" });
    expect(refusedRun.status).toBe(2);
    expect(refusedRun.stderr).toContain(`--token-file expects a path where no file exists yet, in a folder this user can write (got "${taken}: EEXIST").`);
    expect(readFileSync(taken, "utf8")).toBe("old");
    const named = join(workspace.cwd, "named-token");
    const server = await startHttpServer(["--cwd", workspace.cwd, "--token-file", named]);
    try {
      expect(server.tokenFile).toBe(named);
      expect(statSync(named).mode & 0o777).toBe(0o600);
      const connected = await connectHttp(server.url, server.auth);
      expect(texts(await call(connected.client, "exec", { command: "echo named" }))).toEqual(["named"]);
      await connected.close();
    } finally {
      await server.stop();
    }
    expect(existsSync(named)).toBe(false);
  });
});

describe("server ends", () => {
  it("ends a session whose client went away without deleting it, with its processes, after --session-timeout", async () => {
    const idle = await startHttpServer(["--cwd", workspace.cwd, "--session-timeout", "1", "--no-auth"]);
    try {
      expect(idle.tokenFile).toBeUndefined();
      expect(idle.stderr()).toContain(`exec-process-mcp: --no-auth: no token; every user and program on this machine that reaches ${idle.url} ` +
        "can run commands as this user\n");
      expect(idle.stderr()).toContain(`listening on ${idle.url}\n`);
      const connected = await connectHttp(idle.url);
      const started = await call(connected.client, "exec", { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } });
      const sessionId = connected.transport.sessionId!;
      expect(markerProcessesNow(workspace.marker)).toContain(started.structuredContent!["pid"]);
      await connected.close(); // closes its event stream, sends no DELETE
      const deadline = Date.now() + 20_000;
      while (!idle.stderr().includes("timed out (idle)") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(idle.stderr()).toContain(`MCP session ${sessionId} timed out (idle)`);
      expect(await processesWithMarker(workspace.marker)).toEqual([]);
      const stale = await fetch(idle.url, { method: "GET", headers: { "Mcp-Session-Id": sessionId, Accept: "text/event-stream" } });
      expect(stale.status).toBe(404);
    } finally {
      await idle.stop();
    }
  });

  it("ends every session's processes on SIGTERM and exits with code 0", async () => {
    const stopping = await startHttpServer(["--cwd", workspace.cwd]);
    const sessions = [await connectHttp(stopping.url, stopping.auth), await connectHttp(stopping.url, stopping.auth)];
    for (const { client } of sessions) {
      await call(client, "exec", { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } });
    }
    // A started shell may not have become sleep yet (bash execs it; dash forks it): wait for both sleeps.
    await until(() => markerProcessesNow(workspace.marker, "sleep").length === 2, "both marked sleeps' start");
    expect(await stopping.stop()).toBe(0);
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });
});
