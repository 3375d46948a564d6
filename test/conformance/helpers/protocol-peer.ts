// The kit's side of the stdio protocol, by hand: raw request lines in, raw answer lines out, so the tests see
// exactly what an implementation writes (order included) and can check every line against the schema.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

export type Answer = { id: number; result?: Record<string, unknown>; error?: { message: string } };

export class ProtocolPeer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line written and read, parsed, in order; the method of each request by id. */
  readonly sent: Array<Record<string, unknown>> = [];
  readonly received: unknown[] = [];
  readonly methods = new Map<number, string>();
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  #queue: Answer[] = [];
  #waiters: Array<(answer: Answer) => void> = [];
  #stderr = "";

  constructor(command: string, args: string[], options: { env: Record<string, string>; cwd: string }) {
    this.child = spawn(command, args, { ...options, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (chunk: Buffer) => void (this.#stderr += chunk.toString()));
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const answer = JSON.parse(line) as Answer;
      this.received.push(answer);
      const waiter = this.#waiters.shift();
      if (waiter) waiter(answer);
      else this.#queue.push(answer);
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  get stderr(): string {
    return this.#stderr;
  }

  send(id: number, method: string, params: Record<string, unknown> = {}): void {
    const request = { id, method, params };
    this.sent.push(request);
    this.methods.set(id, method);
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
  }

  /** The next answer line, whatever request it answers; rejects after `withinMs`. */
  next(withinMs = 30_000): Promise<Answer> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${withinMs} ms; stderr: ${this.#stderr}`)), withinMs);
      this.#waiters.push((answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** Sends a request and returns its answer, asserting that it is the next line. */
  async ask(id: number, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
    this.send(id, method, params);
    const answer = await this.next();
    if (answer.id !== id) throw new Error(`expected the answer to ${id}, got ${JSON.stringify(answer)}`);
    return answer;
  }

  killGroup(): void {
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
