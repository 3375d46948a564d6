// An MCP server program started for one scope of one scenario, and the MCP stdio transport to it. Unlike the SDK's
// StdioClientTransport, the program gets exactly the scenario's environment (no inherited USER or LOGNAME) and
// its own process group, so that nothing of it can outlive the scenario.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How long a server may take to end a session's processes after its client's goodbye (the kill grace included). */
const EXIT_LIMIT_MS = 15_000;
/** The end of the server's stderr kept for error messages. */
const STDERR_KEEP_CHARS = 4_000;

/** What is kept of a server's stderr once `chunk` has come after `kept`. */
export const keptStderr = (kept: string, chunk: Buffer): string => (kept + chunk.toString()).slice(-STDERR_KEEP_CHARS);

/** Whether `ended` took longer than a server may take to end a session (EXIT_LIMIT_MS); resolves by then. */
export async function endsLate(ended: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([
    ended.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), EXIT_LIMIT_MS))),
  ]);
  clearTimeout(timer);
  return late;
}

export class McpProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #command: string;
  readonly #cwd: string;
  readonly #env: Record<string, string>;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcessWithoutNullStreams | undefined;
  #exited: Promise<void> | undefined;
  #stderr = "";

  /** `command` runs as `/bin/sh -c <command>` in `cwd`, with exactly `env`. */
  constructor(command: string, cwd: string, env: Record<string, string>) {
    this.#command = command;
    this.#cwd = cwd;
    this.#env = env;
  }

  /** The end of what the server wrote to stderr (its log). */
  get stderr(): string {
    return this.#stderr;
  }

  async start(): Promise<void> {
    const child = spawn("/bin/sh", ["-c", this.#command], { cwd: this.#cwd, env: this.#env, detached: true, stdio: "pipe" });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("close", () => resolve()));
    child.stdout.on("data", (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#read(); message; message = this.#read()) this.onmessage?.(message);
    });
    child.stderr.on("data", (chunk: Buffer) => void (this.#stderr = keptStderr(this.#stderr, chunk)));
    child.stdin.on("error", () => undefined); // a write after the server died; the close reports it
    child.once("close", () => this.onclose?.());
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
  }

  #read(): JSONRPCMessage | null {
    try {
      return this.#buffer.readMessage();
    } catch (error) {
      this.onerror?.(error as Error);
      return null;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) throw new Error(`The MCP server is not running.\n${this.#stderr}`);
    await new Promise<void>((resolve) => {
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once("drain", resolve);
    });
  }

  /** Closes the server's input, its client's goodbye, and waits for it to exit; kills its group if it does not. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    if (await endsLate(this.#exited!)) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      await this.#exited;
    }
  }
}
