// The node's control channel (issue 20): one long-lived `sh` on a channel kept free for it, reading control lines
// (kill, environment files) on stdin, so that control never waits for, or is refused, a session slot.
import { randomBytes } from "node:crypto";
import type { Client } from "ssh2";
import { FRAME_MARK } from "./remote-command.js";

/** What the control channel needs of an ssh2 channel (a child process's pipes do as well, in tests). */
export interface ControlStream {
  write(data: string): unknown;
  end(): unknown;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  once(event: "close", listener: () => void): unknown;
  stderr: { on(event: "data", listener: (chunk: Buffer) => void): unknown };
}

/** How long a new control channel may take to report its temporary directory. */
export const CONTROL_START_TIMEOUT_MS = 10_000;
/** Startup output and other noise kept while looking for acknowledgements. */
const MAX_HELD_CHARS = 4_096;

export class ControlChannel {
  private readonly token = randomBytes(8).toString("hex");
  private readonly pending = new Map<string, { resolve(status: number): void; reject(error: Error): void }>();
  private readonly closeListeners = new Set<() => void>();
  private held = "";
  private nextId = 1;
  private isClosed = false;
  /** The node's temporary directory (`$TMPDIR` or /tmp) as the control shell sees it. */
  tempDir = "/tmp";

  private constructor(private readonly stream: ControlStream) {
    stream.on("data", (chunk) => this.read(chunk.toString("latin1")));
    stream.stderr.on("data", () => {}); // kill lines that find nothing say so on stderr: ignored
    stream.once("close", () => this.fail());
  }

  /** Starts the control shell on `stream` (its stdin and stdout) and waits until it answers. */
  static async start(stream: ControlStream, timeoutMs = CONTROL_START_TIMEOUT_MS): Promise<ControlChannel> {
    const control = new ControlChannel(stream);
    const dir = new Promise<void>((resolve, reject) => {
      control.pending.set("dir", { resolve: () => resolve(), reject });
    });
    control.send(`umask 077; printf '\\036%s:dir:%s\\036\\n' ${control.token} "\${TMPDIR:-/tmp}"`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the control shell did not answer")), timeoutMs);
    });
    try {
      await Promise.race([dir, timeout]);
    } catch (error) {
      control.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return control;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Runs one line in the control shell; resolves with its exit status, rejects when the channel closes first. */
  run(line: string): Promise<number> {
    if (this.isClosed) return Promise.reject(new Error("the control channel is closed"));
    const id = String(this.nextId++);
    const done = new Promise<number>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send(`${line}\nprintf '\\036%s:%s:%s\\036\\n' ${this.token} ${id} "$?"`);
    return done;
  }

  onClose(listener: () => void): () => void {
    if (this.isClosed) {
      listener();
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Ends the control shell's input: it exits once it ran what it already got. */
  close(): void {
    if (this.isClosed) return;
    this.stream.end();
    this.fail();
  }

  private send(text: string): void {
    try {
      this.stream.write(`${text}\n`);
    } catch {
      this.fail(); // the channel went away under us
    }
  }

  private read(text: string): void {
    this.held += text;
    const frame = new RegExp(`${FRAME_MARK}${this.token}:(dir|\\d+):([^${FRAME_MARK}]*)${FRAME_MARK}`, "g");
    let consumed = 0;
    for (const match of this.held.matchAll(frame)) {
      consumed = (match.index ?? 0) + match[0].length;
      const [, id = "", value = ""] = match;
      if (id === "dir") this.tempDir = Buffer.from(value, "latin1").toString("utf8") || "/tmp";
      const waiter = this.pending.get(id);
      this.pending.delete(id);
      waiter?.resolve(Number(value));
    }
    this.held = this.held.slice(consumed).slice(-MAX_HELD_CHARS);
  }

  private fail(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const error = new Error("the control channel closed");
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }
}

/** Opens the control shell on a new channel of `client`. */
export function openControlChannel(client: Client): Promise<ControlChannel> {
  return new Promise((resolve, reject) => {
    client.exec("exec /bin/sh", (error, channel) => {
      if (error) return reject(error);
      ControlChannel.start(channel).then(resolve, reject);
    });
  });
}
