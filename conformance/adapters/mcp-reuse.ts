// The kit's --reuse with --mcp: MCP sessions served one after another by server processes that speak the in-turn
// framing of exec-process-mcp (its mcp/in-turn.ts; scripts/mcp-bundle.cjs --in-turn in this repository). A session
// is a start line with the flags and the environment its own server would get, its MCP messages, then an end line;
// the process answers `ended` once the session and its processes have ended. A scenario with several scopes holds
// several processes at once; a worker keeps the idle ones for its next scenarios. They run with a neutral
// environment, so that the survivor check sees only what the scenarios started, and end with the worker.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Socket } from "node:net";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { makeTempFolder } from "../temp-folders.js";
import { endsLate, keptStderr } from "./mcp-process.js";
import { neutralEnv } from "./stdio-client.js";

const ENDED = '{"reuse":"ended"';

/** One server process; it serves the session of one lease at a time. */
class InTurnServer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<void>;
  #lease: McpLeaseTransport | undefined;
  #pending = "";
  #stderr = "";
  #alive = true;

  constructor(command: string, cwd: string, env: Record<string, string>) {
    const child = spawn("/bin/sh", ["-c", command], { cwd, env, detached: true, stdio: "pipe" });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("close", () => resolve()));
    child.once("error", () => undefined); // reported as the close below
    child.once("close", () => {
      this.#alive = false;
      this.#lease?.serverGone(this.#stderr);
    });
    child.stdin.on("error", () => undefined); // a write after it died; the close reports it
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (this.#pending + chunk).split("\n");
      this.#pending = lines.pop() ?? "";
      for (const line of lines) this.#onLine(line);
    });
    child.stderr.on("data", (chunk: Buffer) => void (this.#stderr = keptStderr(this.#stderr, chunk)));
  }

  get alive(): boolean {
    return this.#alive;
  }

  get idle(): boolean {
    return this.#lease === undefined;
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Starts the lease's session; while idle the process must not keep the worker alive. */
  begin(lease: McpLeaseTransport, argv: string[], env: Record<string, string>): void {
    this.#lease = lease;
    this.#hold(true);
    this.write(`${JSON.stringify({ reuse: "start", argv, env })}\n`);
  }

  /** The lease is over: its session has ended. */
  finish(): void {
    this.#lease = undefined;
    this.#hold(false);
  }

  write(text: string): void {
    if (this.#alive) this.#child.stdin.write(text);
  }

  async kill(): Promise<void> {
    try {
      process.kill(-this.#child.pid!, "SIGKILL");
    } catch {
      // gone meanwhile
    }
    await this.#exited;
  }

  #onLine(line: string): void {
    if (line.startsWith(ENDED)) {
      this.#lease?.sessionEnded();
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.#lease?.onerror?.(error as Error);
      return;
    }
    this.#lease?.onmessage?.(message);
  }

  #hold(held: boolean): void {
    const pipes = [this.#child.stdin, this.#child.stdout, this.#child.stderr] as unknown as Socket[]; // a child's pipes are sockets
    for (const handle of [this.#child, ...pipes]) {
      if (held) handle.ref();
      else handle.unref();
    }
  }
}

/** The idle server processes of this worker, by command and working directory. */
const idle = new Map<string, InTurnServer[]>();
const everyServer = new Set<InTurnServer>();
let home: string | undefined;
// At the worker's end, idle processes go at once; one serving a session sees the end of its input when the worker is
// gone, and ends that session's processes before it exits (as a server of its own would).
process.once("exit", () => {
  for (const server of everyServer) if (server.idle) void server.kill();
});

function acquire(command: string, cwd: string): InTurnServer {
  const key = `${command}\0${cwd}`;
  const list = idle.get(key) ?? [];
  for (let server = list.pop(); server; server = list.pop()) if (server.alive) return server;
  const server = new InTurnServer(command, cwd, neutralEnv((home ??= makeTempFolder("exec-conformance-mcp-reuse-"))));
  everyServer.add(server);
  return server;
}

function release(command: string, cwd: string, server: InTurnServer): void {
  server.finish();
  if (!server.alive) {
    everyServer.delete(server);
    return;
  }
  const key = `${command}\0${cwd}`;
  idle.set(key, [...(idle.get(key) ?? []), server]);
}

/** An MCP stdio session served in turn by a kept process: a transport as McpProcessTransport is for a process of its own. */
export class McpLeaseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #command: string;
  readonly #cwd: string;
  readonly #argv: string[];
  readonly #env: Record<string, string>;
  #server: InTurnServer | undefined;
  #ended = false;
  #markEnded: () => void = () => undefined;
  readonly #endedPromise = new Promise<void>((resolve) => (this.#markEnded = resolve));
  #stderr = "";

  /** `command` (run as `/bin/sh -c <command>` in `cwd`) serves the sessions; this one gets `argv` and exactly `env`. */
  constructor(command: string, cwd: string, argv: string[], env: Record<string, string>) {
    this.#command = command;
    this.#cwd = cwd;
    this.#argv = argv;
    this.#env = env;
  }

  /** The end of what the serving process wrote to stderr (its log). */
  get stderr(): string {
    return this.#server?.stderr ?? this.#stderr;
  }

  async start(): Promise<void> {
    this.#server = acquire(this.#command, this.#cwd);
    this.#server.begin(this, this.#argv, this.#env);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#ended || !this.#server?.alive) throw new Error(`The MCP session has ended.\n${this.stderr}`);
    this.#server.write(serializeMessage(message));
  }

  /** The client's goodbye: waits until the session's processes have ended, then hands the process back. */
  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.write('{"reuse":"end"}\n'); // also after a session that ended by itself: the process waits for it
    if (await endsLate(this.#endedPromise)) await server.kill();
    this.#server = undefined;
    this.#stderr = server.stderr;
    release(this.#command, this.#cwd, server);
  }

  /** The process said `ended`: the session is over (after its end line, or by itself). */
  sessionEnded(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#markEnded();
    this.onclose?.();
  }

  /** The process died: the session is over with it. */
  serverGone(stderr: string): void {
    this.#stderr = stderr;
    this.sessionEnded();
  }
}
