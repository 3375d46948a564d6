// Shared by the MCP interop tests: the server started as a user's client starts it (its bin script), the SDK's own
// Client over stdio and HTTP, and the marker that finds a test's processes in /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, expect } from "vitest";
import { findSurvivors } from "../../step-definitions/support/survivors.js";

export const SERVER_BIN = new URL("../../mcp/exec-process-mcp.mjs", import.meta.url).pathname;
/** The longest a test waits for something the server does by itself (an exit event, a process end). */
export const WAIT_LIMIT_MS = 20_000;

/** The data of an exit-event logging notification. */
export interface ExitNotice { sessionId: string; text: string; contextKey: string; createdAt: number }

export interface Connected {
  client: Client;
  /** Exit events received as notifications/message, in order. */
  notices: ExitNotice[];
  /** Resolves with the first notice whose text contains `fragment`. */
  noticeContaining(fragment: string): Promise<ExitNotice>;
  close(): Promise<void>;
}

/** A fresh working directory and a marker to put in the environment of the commands a test starts. */
export function testWorkspace(): { cwd: string; marker: string; remove(): void } {
  // marker is writable: a test file may give each test its own
  const root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-test-")));
  return { cwd: root, marker: randomUUID(), remove: () => rmSync(root, { recursive: true, force: true }) };
}

export type Workspace = ReturnType<typeof testWorkspace>;

/**
 * The hooks of a file of stdio server tests: one workspace for the file (filled in before its first test); after
 * each test, every server opened with `connect` is closed and no process carrying the workspace's marker is left.
 */
export function stdioServerTests(): { workspace: Workspace; connect(args?: string[]): Promise<Connected> } {
  const workspace = {} as Workspace;
  const open: Connected[] = [];
  beforeAll(() => {
    Object.assign(workspace, testWorkspace());
    return () => workspace.remove();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connected) => connected.close()));
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });
  return {
    workspace,
    async connect(args = []) {
      const connected = await connectStdio(["--cwd", workspace.cwd, ...args]);
      open.push(connected);
      return connected;
    },
  };
}

/** The environment the server runs with: the test runner's own, without vitest's variables. */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("VITEST") && key !== "NODE_OPTIONS") env[key] = value;
  }
  return { ...env, ...extra };
}

/** The SDK Client connected to a server it starts over stdio. */
export async function connectStdio(args: string[], env = serverEnv()): Promise<Connected & { transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER_BIN, ...args], env, stderr: "pipe" });
  return { ...(await connect(transport)), transport };
}

export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Connected & { transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  return { ...(await connect(transport)), transport };
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Connected> {
  const client = new Client({ name: "interop-test", version: "1.0.0" });
  const notices: ExitNotice[] = [];
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    if (notification.params.logger !== "exec-process") return;
    notices.push(notification.params.data as ExitNotice);
    for (const wake of waiters.splice(0)) wake();
  });
  await client.connect(transport);
  const noticeContaining = async (fragment: string): Promise<ExitNotice> => {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const found = notices.find((notice) => notice.text.includes(fragment));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No exit notification containing "${fragment}" within ${WAIT_LIMIT_MS} ms; got ${JSON.stringify(notices)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { client, notices, noticeContaining, close: () => client.close() };
}

/** A server started over HTTP; `auth` carries the token it generated (none with --token or --no-auth). */
export interface StartedHttpServer {
  url: string;
  child: ChildProcess;
  /** The file the server wrote its generated token to, as its stderr names it. */
  tokenFile: string | undefined;
  /** `Authorization: Bearer <generated token>`, or {} when the server generated none. */
  auth: Record<string, string>;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** The path in the server's line about a generated token. */
export const TOKEN_FILE_LINE = /HTTP bearer token generated into (\S+) \(mode 0600/;

/** The server over HTTP, started with `args` after `--http 0`; resolves once it listens. */
export async function startHttpServer(args: string[], env = serverEnv()): Promise<StartedHttpServer> {
  const child = spawn(process.execPath, [SERVER_BIN, "--http", "0", ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The HTTP server did not start:\n${stderr}`)), WAIT_LIMIT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`The HTTP server exited with ${code}:\n${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
  const tokenFile = TOKEN_FILE_LINE.exec(stderr)?.[1];
  const auth: Record<string, string> = tokenFile === undefined ? {} : { Authorization: `Bearer ${readFileSync(tokenFile, "utf8")}` };
  return {
    url, child, tokenFile, auth, stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The text blocks of a result. */
export function texts(result: unknown): string[] {
  return ((result as CallToolResult).content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`));
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Processes that carry CONFORMANCE_SCENARIO=<marker> (exec's env), re-checked for up to 3 s until none is left. */
export const processesWithMarker = findSurvivors;

/** Waits until `condition` holds, looking every 50 ms; fails naming `what` after WAIT_LIMIT_MS. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${WAIT_LIMIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Live processes carrying the marker now (one look at /proc); with `command`, only those running that program. A
 * shell need not exec its last command (dash and bash do, others fork it), so a count names the program it counts.
 */
export function markerProcessesNow(marker: string, command?: string): number[] {
  const needle = `CONFORMANCE_SCENARIO=${marker}`;
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      if (!readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(needle)) return [];
      if (command !== undefined && readFileSync(`/proc/${name}/comm`, "latin1").trim() !== command) return [];
      return /\) Z /.test(readFileSync(`/proc/${name}/stat`, "latin1")) ? [] : [Number(name)];
    } catch {
      return []; // gone meanwhile
    }
  });
}
