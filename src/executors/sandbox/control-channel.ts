// How the sandbox's supervisor reports back to the host: through a FIFO that the launch wrapper opens as fd 3 before
// bubblewrap runs, never through a path inside the sandbox. The command cannot replace the channel (no path of it
// is visible inside: the private directory is removed as soon as the shell runs, and is hidden inside while it
// exists, see mount-plan.ts), the host reads it without blocking (O_NONBLOCK, through a libuv pipe), and it reads at
// most CONTROL_LIMIT_BYTES, then stops. A command can reach the supervisor's end through /proc/<pid>/fd and write
// there, but that only lets it lie about its own start and exit, which it controls anyway.
import { execFile } from "node:child_process";
import { close, constants, fstat, open } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Socket } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

/** Reports beyond this size are not read: the channel is closed and the exit falls back to bubblewrap's status. */
export const CONTROL_LIMIT_BYTES = 4096;
/** After bubblewrap ended, how long the host waits for the last report (every writer is gone by then). */
const FINAL_REPORT_WAIT_MS = 2000;
/** Prefix of the private directory in the host's temporary directory. */
export const CONTROL_DIR_PREFIX = "sandbox-";

const execFileAsync = promisify(execFile);
const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const closeAsync = promisify(close);
/** Where mkfifo is looked for besides the host's PATH. */
const SYSTEM_PATH = ["/usr/bin", "/bin"];

/** What the supervisor said, one JSON object per line. */
export type ControlReport =
  | { started: true }
  | { exit: { code: number | null; signal: string | null } }
  | { refused: number }
  | { error: string };

export interface ControlChannel {
  /** The FIFO the launch wrapper opens as fd 3, and the seccomp program it opens as fd 4 (when there is one). */
  readonly fifoPath: string;
  readonly seccompPath: string | undefined;
  /** True once the supervisor reported that the shell runs. */
  started(): boolean;
  /** Waits (bounded) for the end of the channel once bubblewrap has ended; the supervisor's last words. */
  finish(): Promise<ChannelOutcome>;
  /** Removes the private directory (the FIFO's and the program's paths); the open channel stays usable. */
  removeDirectory(): Promise<void>;
  /** Stops reading and removes everything. */
  close(): Promise<void>;
}

export interface ChannelOutcome {
  started: boolean;
  exit?: { code: number | null; signal: string | null };
  refused?: number;
  error?: string;
}

/**
 * Creates the private directory (0700, in `baseDir`), the FIFO and, when given, the seccomp program file, and
 * opens the FIFO's reading end (non-blocking, so without a writer yet).
 */
export async function openControlChannel(baseDir: string, seccomp: Buffer | undefined): Promise<ControlChannel> {
  const dir = await mkdtemp(join(baseDir, CONTROL_DIR_PREFIX));
  const fifoPath = join(dir, "control");
  const seccompPath = seccomp ? join(dir, "seccomp.bpf") : undefined;
  let socket: Socket;
  try {
    const path = [process.env["PATH"], ...SYSTEM_PATH].filter(Boolean).join(":");
    await execFileAsync("mkfifo", ["-m", "600", fifoPath], { env: { PATH: path } });
    if (seccomp && seccompPath) await writeFile(seccompPath, seccomp, { mode: 0o600, flag: "wx" });
    const fd = await openAsync(fifoPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!(await fstatAsync(fd)).isFIFO()) {
      await closeAsync(fd);
      throw new Error("the sandbox's control FIFO was replaced");
    }
    socket = new Socket({ fd, readable: true, writable: false }); // owns the descriptor from now on
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return createChannel(socket, dir, fifoPath, seccompPath);
}

function createChannel(socket: Socket, dir: string, fifoPath: string, seccompPath: string | undefined): ControlChannel {
  const outcome: ChannelOutcome = { started: false };
  let received = 0;
  let pending = "";
  let ended = false;
  const endWaiters: Array<() => void> = [];
  const markEnded = (): void => {
    ended = true;
    for (const resolve of endWaiters.splice(0)) resolve();
  };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    const room = CONTROL_LIMIT_BYTES - received;
    received += Buffer.byteLength(chunk);
    // A flood: the lines within the limit still count, even when one read brought them with the flood behind them
    // (the supervisor's start report, written first, and a command's flood through /proc), and reading stops.
    const flooded = received > CONTROL_LIMIT_BYTES;
    pending += flooded ? Buffer.from(chunk).subarray(0, room).toString("utf8") : chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) applyReport(outcome, line);
    if (flooded) socket.destroy();
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", markEnded);
  socket.unref(); // the sandbox's own process keeps the host alive as long as it should
  let removed: Promise<void> | undefined;
  const removeDirectory = (): Promise<void> => (removed ??= rm(dir, { recursive: true, force: true }).catch(() => {}));
  return {
    fifoPath,
    seccompPath,
    started: () => outcome.started,
    async finish() {
      if (!ended) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FINAL_REPORT_WAIT_MS);
          endWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      socket.destroy();
      await removeDirectory();
      return { ...outcome };
    },
    removeDirectory,
    async close() {
      socket.destroy();
      await removeDirectory();
    },
  };
}

function applyReport(outcome: ChannelOutcome, line: string): void {
  let report: unknown;
  try {
    report = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof report !== "object" || report === null) return;
  const fields = report as Record<string, unknown>;
  if (fields["started"] === true) outcome.started = true;
  if (typeof fields["refused"] === "number") outcome.refused = fields["refused"];
  if (typeof fields["error"] === "string") outcome.error = fields["error"].slice(0, 200);
  const exit = fields["exit"];
  if (typeof exit === "object" && exit !== null) {
    const { code, signal } = exit as Record<string, unknown>;
    outcome.exit = { code: typeof code === "number" ? code : null, signal: typeof signal === "string" ? signal : null };
  }
}
