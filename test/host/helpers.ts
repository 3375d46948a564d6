// Shared helpers of the session host tests: hosts in this process or as the exec-process-host program, raw
// JSON-RPC connections (what an attacker or a broken client sends), and cleanup of everything a test started.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createSessionHost, HOST_DEFAULTS, type SessionHost, type SessionHostOptions } from "../../src/host/index.js";
import { readProcTable, tempDir, testEnv, type ProcEntry } from "../reliability/helpers.js";

export const TOKEN = "test-token-0123456789abcdef";
const BIN = fileURLToPath(new URL("../../bin/exec-process-host.mjs", import.meta.url));

const hosts: SessionHost[] = [];
const programs: Array<{ child: ChildProcess; exited: Promise<unknown>; socketPath?: string }> = [];
const sockets: Socket[] = [];

/** A host in this process with a temp cwd and the controlled environment; `stopAll` closes it. */
export async function startHost(options: SessionHostOptions = {}): Promise<SessionHost & { socketPath: string }> {
  const host = await createSessionHost({ token: TOKEN, ...options, engine: { cwd: tempDir(), env: testEnv(), ...options.engine } });
  hosts.push(host);
  if (host.address.kind !== "unix") throw new Error("expected a unix socket");
  return Object.assign(host, { socketPath: host.address.socketPath });
}

export interface HostProgram {
  child: ChildProcess;
  socketPath: string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  stderr(): string;
}

/** exec-process-host as a separate process; resolves once it printed where it listens. */
export async function startHostProgram(args: string[] = [], env: Record<string, string> = {}): Promise<HostProgram> {
  const child = spawn(process.execPath, [BIN, "--cwd", tempDir(), ...args], {
    env: { ...testEnv(), EXEC_PROCESS_HOST_TOKEN: TOKEN, ...env }, stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (code, signal) => resolve([code, signal])));
  const program: (typeof programs)[number] = { child, exited };
  programs.push(program);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    });
    void exited.then(([code, signal]) => reject(new Error(`exec-process-host exited early (${code ?? signal}): ${stderr}`)));
  });
  const { socketPath } = JSON.parse(line) as { socketPath: string };
  program.socketPath = socketPath;
  return { child, socketPath, exited, stderr: () => stderr };
}

/** The live processes (zombies left out) whose command line holds `text`: a job's shell, by its command. */
export function processesRunning(text: string): ProcEntry[] {
  return readProcTable().filter((entry) => {
    if (entry.state === "Z" || entry.state === "X") return false;
    try {
      return readFileSync(`/proc/${entry.pid}/cmdline`, "utf8").includes(text);
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** A raw connection: lines out, parsed messages in. */
export async function rawConnection(socketPath: string): Promise<{
  socket: Socket; send(message: unknown): void; sendLine(line: string): void; next(): Promise<Record<string, unknown>>; closed: Promise<void>;
}> {
  const socket = connect(socketPath);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const queue: Array<Record<string, unknown>> = [];
  const waiting: Array<(message: Record<string, unknown>) => void> = [];
  let buffer = "";
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    }
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    socket,
    send: (message) => socket.write(`${JSON.stringify(message)}\n`),
    sendLine: (line) => socket.write(line),
    next: () => {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        setTimeout(() => reject(new Error("no message within 10 s")), 10_000).unref();
      });
    },
    closed,
  };
}

/** For afterEach: closes every host and connection, and ends every host program (SIGKILL if it is still up). */
export async function stopAll(): Promise<void> {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const { child, exited, socketPath } of programs.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    // A host killed with SIGKILL cannot remove the private folder it made for its socket and token.
    const folder = socketPath === undefined ? undefined : dirname(socketPath);
    if (folder !== undefined && basename(folder).startsWith(HOST_DEFAULTS.socketDirPrefix)) rmSync(folder, { recursive: true, force: true });
  }
}
