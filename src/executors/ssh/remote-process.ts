// One command running on a node: takes the start frame off its output (dropping the login shell's startup output),
// signals its remote process group over the node's control channel, and ends with a clear reason when the
// connection drops (issues 13, 20).
import { StringDecoder } from "node:string_decoder";
import type { ClientChannel } from "ssh2";
import * as messages from "../../engine/messages.js";
import { TERMINAL_EOF, type ExecutorProcess } from "../../engine/index.js";
import { createQueuedProcess } from "../executor-process.js";
import type { NodeConnection } from "./node-connection.js";
import { PREAMBLE_LIMIT_BYTES, createPreambleReader } from "./preamble-reader.js";
import { parseStartFrame } from "./remote-command.js";

export type Signal = "SIGTERM" | "SIGKILL";
/** How long a closed channel may take to end its output streams before the command is reported finished anyway. */
const STREAM_END_WAIT_MS = 1_000;

export interface RemoteProcessOptions {
  connection: Pick<NodeConnection, "node" | "closed" | "onClose">;
  channel: ClientChannel;
  pty: boolean;
  marker: string;
  /** Signals the remote process group (over the control channel); rejects when it cannot. */
  signalGroup(pid: number, signal: Signal): Promise<void>;
  /** The connection closed while the command ran, so it may still run on the node (pid undefined: unknown). */
  onLost(pid: number | undefined, startTime: string | undefined): void;
}

export interface RemoteProcess {
  readonly process: ExecutorProcess;
  /** Resolves once the remote pid is known (then `process.pid` is set), is known to be unknown, or the command ended. */
  readonly started: Promise<void>;
  readonly done: Promise<void>;
  readonly finished: boolean;
  /** Signals the command's process group; resolves once the node ran the kill (or nothing more can be done). */
  kill(signal: Signal): Promise<void>;
}

export function startRemoteProcess(options: RemoteProcessOptions): RemoteProcess {
  const { connection, channel, pty, marker } = options;
  const { process, events } = createQueuedProcess();
  let remotePid: number | undefined;
  let startTime: string | undefined;
  let frameSettled = false;
  let pendingSignal: { signal: Signal; sent(): void } | undefined;
  let finished = false;
  let exitStatus: [number | null, string | null] = [null, null];
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let resolveStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));

  /** No pid to signal: the SSH signal request (servers may ignore it), then closing the channel. */
  const signalChannel = (signal: Signal): void => {
    try {
      channel.signal(signal.slice(3));
      channel.close();
    } catch {
      // the channel is gone already
    }
  };
  const sendSignal = (signal: Signal): Promise<void> => {
    if (finished || connection.closed) return Promise.resolve();
    if (!frameSettled) {
      pendingSignal?.sent();
      return new Promise((resolve) => (pendingSignal = { signal, sent: resolve })); // sent once the frame is in
    }
    if (remotePid === undefined) {
      signalChannel(signal);
      return Promise.resolve();
    }
    return options.signalGroup(remotePid, signal).catch(() => signalChannel(signal));
  };
  const finish = (code: number | null, signal: string | null): void => {
    if (finished) return;
    finished = true;
    stopWatchingClose();
    events.exit(code, signal);
    settleFrame();
    resolveDone();
  };
  const stopWatchingClose = connection.onClose(() => {
    if (finished) return;
    events.output("stderr", messages.sshConnectionLost(connection.node, remotePid !== undefined));
    options.onLost(remotePid, startTime);
    finish(null, null);
  });
  function settleFrame(): void {
    if (frameSettled) return;
    frameSettled = true;
    resolveStarted();
    const pending = pendingSignal;
    pendingSignal = undefined;
    if (pending) void sendSignal(pending.signal).then(pending.sent);
  }

  // Terminal output as text, like a local terminal's, so terminal queries in it are seen (INPUT-16).
  const terminalText = pty ? new StringDecoder("utf8") : undefined;
  const stdout = createPreambleReader(marker, (fields, missing) => {
    const frame = fields === undefined ? undefined : parseStartFrame(fields);
    if (frame) {
      remotePid = frame.pid;
      startTime = frame.startTime;
      process.pid = frame.pid;
    }
    if (missing === "limit") events.output("stderr", messages.sshPidUnknown(connection.node, PREAMBLE_LIMIT_BYTES));
    settleFrame();
  }, (chunk) => events.output("stdout", terminalText ? terminalText.write(chunk) : chunk));
  const stderr = createPreambleReader(marker, () => {}, (chunk) => events.output("stderr", chunk));
  channel.on("data", (chunk: Buffer) => stdout.write(chunk));
  channel.stderr.on("data", (chunk: Buffer) => stderr.write(chunk));
  channel.on("exit", (code: number | null, signal?: string) => {
    exitStatus = [typeof code === "number" ? code : null, signal ?? null];
  });
  // The channel can close before its streams delivered their last chunks: finish once both ended too.
  let open = 3;
  const settle = (): void => {
    open -= 1;
    if (open === 0) finish(...exitStatus);
  };
  channel.once("end", () => {
    stdout.end();
    settle();
  });
  channel.stderr.once("end", () => {
    stderr.end();
    settle();
  });
  // ssh2 emits "exit" as it parses the exit status, which may be in the same read as the channel's opening, before
  // the listener above exists; "close" carries the same status, recorded by ssh2 whenever it came.
  channel.once("close", (code?: number | null, signal?: string) => {
    if (code !== undefined && exitStatus[0] === null && exitStatus[1] === null) {
      exitStatus = [typeof code === "number" ? code : null, signal ?? null];
    }
    settle();
    setTimeout(() => {
      stdout.end();
      stderr.end();
      finish(...exitStatus);
    }, STREAM_END_WAIT_MS).unref();
  });

  if (pty) {
    process.stdin = terminalInput(channel, () => finished);
    process.reply = (data) => {
      if (!finished) channel.write(data);
    };
  }
  else channel.end(); // EXEC-45: no input for non-terminal commands
  process.kill = (signal) => void sendSignal(signal);
  return {
    process, started, done, kill: sendSignal,
    get finished() {
      return finished;
    },
  };
}

function terminalInput(channel: ClientChannel, finished: () => boolean): NonNullable<ExecutorProcess["stdin"]> {
  let ended = false;
  return {
    write: (data) => new Promise<void>((resolve) => {
      if (finished()) return resolve();
      channel.write(typeof data === "string" ? data : Buffer.from(data), () => resolve());
    }),
    end: () => {
      if (!ended && !finished()) channel.write(TERMINAL_EOF); // PTY-07: the terminal itself stays open
      ended = true;
    },
    get writable() {
      return !ended && !finished();
    },
  };
}
