// One running implementation behind the stdio protocol: spawns it, matches responses to requests by id, and turns
// every way the conversation can go wrong (timeout, malformed line, crash, error answer) into a StdioProtocolError
// that names what happened and carries the tail of the implementation's stderr. Nothing here can hang.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { LineReader } from "./line-reader.js";
import { STDERR_TAIL_BYTES, STDOUT_TAIL_BYTES, StdioProtocolError, type ProtocolFailure } from "./stdio-error.js";
import type { ToolUpdate } from "../adapter.js";
import { encodeLine, parseResponse, type Method, type ParamsOf, type ResultOf } from "./stdio-protocol.js";

/** How long `end` waits for the implementation to exit after its stdin was closed, before killing its group. */
export const EXIT_AFTER_EOF_MS = 5000;
/** After an exit, how long to wait for the last stderr bytes before reporting it. */
const STDERR_SETTLE_MS = 200;
const LINE_EXCERPT_CHARS = 200;

export interface ConnectionOptions {
  /** Shell command, run as `/bin/sh -c <command>` in its own process group. */
  command: string;
  /** The directory the command is run in (relative paths in it resolve there). */
  cwd: string;
  /** The implementation's complete process environment. */
  env: Record<string, string>;
  /** Per-request timeout, in ms. */
  timeoutMs: number;
}

interface Pending {
  method: Method;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** Receives the request's `progress` messages (calls that asked for them, protocol version 2). */
  onProgress?: (update: ToolUpdate) => void;
}

/** Options of one request. */
export interface RequestOptions {
  /** Send the `abort` at its time even when the answer came first (a run's signal outlives its tool call, LC-22). */
  abortAfterAnswer?: boolean;
  /** Receives each `progress` message of the request before its answer. */
  onProgress?: (update: ToolUpdate) => void;
}
interface ExitInfo { code: number | null; signal: string | null; error?: Error }

export class StdioConnection {
  readonly #options: ConnectionOptions;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  /** Requests that timed out: a late answer to them is dropped, not a protocol violation. */
  readonly #abandoned = new Set<number>();
  readonly #exited: Promise<ExitInfo>;
  #stderr = Buffer.alloc(0);
  /** The last bytes of stdout, shown when the implementation exits unexpectedly. */
  #stdoutTail = Buffer.alloc(0);
  /** Splits the implementation's stdout into answer lines, in linear time however long a line is. */
  readonly #stdout = new LineReader({ onLine: (line) => this.#readLine(line) });
  #nextId = 1;
  /** Set once the conversation is over; every later request fails with it. */
  #broken: StdioProtocolError | undefined;
  /** A malformed line was read: no further line is handled, and the failure follows once stderr settled. */
  #failing = false;
  #exitReported = false;
  /** Set when the kit closed stdin: the exit that follows is expected. */
  #ending = false;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    // dash and bash export PWD to their children; unsetting it keeps the environment exactly the scenario's.
    this.#child = spawn("/bin/sh", ["-c", `unset PWD\n${options.command}`], {
      cwd: options.cwd, env: options.env, detached: true, stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child.stdin.on("error", () => {}); // EPIPE after a crash: reported through the exit instead
    this.#child.stdout.on("data", (chunk: Buffer) => {
      const joined = Buffer.concat([this.#stdoutTail, chunk]);
      this.#stdoutTail = joined.subarray(Math.max(0, joined.length - STDOUT_TAIL_BYTES));
      this.#stdout.push(chunk);
    });
    this.#child.stderr.on("data", (chunk: Buffer) => {
      const joined = Buffer.concat([this.#stderr, chunk]);
      this.#stderr = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once("error", (error) => resolve({ code: null, signal: null, error }));
      this.#child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    void this.#exited.then((exit) => this.#onExit(exit));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** True while requests can still be answered: not crashed, not ended, no protocol failure. */
  get usable(): boolean {
    return !this.#broken && !this.#ending && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /**
   * Sends a request; `abortAfterMs` (calls only) sends `abort` for it after that many ms, 0 = in the same write.
   * With `abortAfterAnswer` the abort is sent at that time even when the answer came first (a run's signal outlives
   * its tool call, LC-22).
   */
  request<M extends Method>(
    method: M, params: ParamsOf<M>, abortAfterMs?: number, { abortAfterAnswer = false, onProgress }: RequestOptions = {},
  ): Promise<ResultOf<M>> {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => this.#timeOut(id), this.#options.timeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer, ...(onProgress ? { onProgress } : {}) });
    });
    let line = encodeLine({ id, method, params: params as Record<string, unknown> });
    let abortTimer: NodeJS.Timeout | undefined;
    if (abortAfterMs !== undefined && abortAfterMs <= 0) line += this.#abortLine(id);
    else if (abortAfterMs !== undefined) abortTimer = setTimeout(() => this.#sendAbort(id, abortAfterAnswer), abortAfterMs);
    this.#child.stdin.write(line);
    if (abortAfterAnswer) return answered as Promise<ResultOf<M>>;
    return answered.finally(() => clearTimeout(abortTimer)) as Promise<ResultOf<M>>;
  }

  /**
   * Ends the implementation: closes its stdin (it then exits, PROTOCOL.md §1), waits up to EXIT_AFTER_EOF_MS for
   * the exit, and kills its process group in any case. Throws when it had exited on its own before, unreported,
   * or did not exit in time.
   */
  async end(reason: string): Promise<void> {
    if (this.#broken) {
      this.killGroup();
      if (this.#exitReported) return;
      this.#exitReported = true;
      throw this.#broken;
    }
    this.#ending = true;
    this.fail(this.error("ended", `was ended by the kit ${reason}; no request can follow.`));
    this.#exitReported = true;
    this.#child.stdin.end();
    const exited = await Promise.race([this.#exited.then(() => true), delay(EXIT_AFTER_EOF_MS).then(() => false)]);
    this.killGroup();
    if (!exited) throw this.error("not-exiting", `did not exit within ${EXIT_AFTER_EOF_MS} ms after its stdin was closed; the kit killed its process group.`);
  }

  /** SIGKILL to the implementation's process group (its own children included). */
  killGroup(): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
  }

  /** Ends the conversation with `error`: every pending and later request fails with it, the process is killed. */
  fail(error: StdioProtocolError): void {
    if (this.#broken) return;
    this.#broken = error;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(error);
      this.#exitReported = true;
    }
    if (!this.#ending) this.killGroup();
  }

  /** An error naming the implementation and what it did, with its stderr tail. */
  error(failure: ProtocolFailure, what: string): StdioProtocolError {
    const stdout = failure === "exited" ? lastLines(this.#stdoutTail.toString("utf8")) : undefined;
    return new StdioProtocolError(failure, `The implementation \`${this.#options.command}\` ${what}`, this.#stderr.toString("utf8"), stdout);
  }

  #abortLine(callId: number): string {
    const id = this.#nextId++;
    this.#abandoned.add(id); // its answer carries nothing; drop it whenever it comes
    return encodeLine({ id, method: "abort", params: { callId } });
  }

  #sendAbort(callId: number, evenIfAnswered = false): void {
    if ((evenIfAnswered || this.#pending.has(callId)) && !this.#broken) this.#child.stdin.write(this.#abortLine(callId));
  }

  #timeOut(id: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    this.#abandoned.add(id);
    pending.reject(this.error("timeout", `did not answer "${pending.method}" (request ${id}) within ${this.#options.timeoutMs} ms (the kit's --call-timeout).`));
  }

  /** One line of stdout; none is handled once the conversation is over or a malformed line was read. */
  #readLine(line: string): void {
    if (!this.#broken && !this.#failing && line.trim() !== "") this.#handleLine(line);
  }

  #handleLine(line: string): void {
    let response;
    try {
      response = parseResponse(line);
    } catch (error) {
      const excerpt = line.length > LINE_EXCERPT_CHARS ? `${line.slice(0, LINE_EXCERPT_CHARS)}…` : line;
      // What it logged just before is often still in the stderr pipe: let it arrive, so the report shows it.
      this.#failing = true;
      void delay(STDERR_SETTLE_MS).then(() => this.fail(this.error("malformed-line", `wrote a line to stdout that is not a protocol response (${(error as Error).message}): ${JSON.stringify(excerpt)}. stdout carries protocol lines only; write logs to stderr.`)));
      return;
    }
    const pending = this.#pending.get(response.id);
    if ("progress" in response) {
      // Progress of a request that did not ask for it, or that timed out, carries nothing the kit waits for.
      if (pending) pending.onProgress?.(response.progress);
      else if (!this.#abandoned.has(response.id)) {
        this.fail(this.error("malformed-line", `sent progress for request ${response.id}, which was never sent or was already answered; progress comes before the answer.`));
      }
      return;
    }
    if (!pending) {
      if (this.#abandoned.delete(response.id)) return;
      this.fail(this.error("malformed-line", `answered request ${response.id}, which was never sent or was already answered.`));
      return;
    }
    this.#pending.delete(response.id);
    clearTimeout(pending.timer);
    if ("error" in response) {
      pending.reject(this.error("error-answer", `answered "${pending.method}" (request ${response.id}) with an error: ${response.error.message}`));
    } else {
      pending.resolve(response.result);
    }
  }

  async #onExit(exit: ExitInfo): Promise<void> {
    // The answers and logs it wrote just before exiting may still be in the pipes.
    await Promise.race([new Promise((resolve) => this.#child.once("close", resolve)), delay(STDERR_SETTLE_MS)]);
    if (this.#broken) return;
    const how = exit.error ? `could not be started (${exit.error.message})`
      : exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
    const waiting = [...this.#pending].map(([id, { method }]) => `"${method}" (request ${id})`);
    const detail = waiting.length > 0 ? ` while ${waiting.join(", ")} ${waiting.length > 1 ? "were" : "was"} waiting for an answer.`
      : " before the kit closed its stdin.";
    this.fail(this.error("exited", `${how}${detail}`));
  }
}

/** The last few lines of a tail (the first one may be cut by the tail's start). */
function lastLines(tail: string, count = 5): string {
  const lines = tail.split("\n");
  const kept = lines.slice(tail.endsWith("\n") ? -(count + 1) : -count);
  return kept.join("\n");
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

