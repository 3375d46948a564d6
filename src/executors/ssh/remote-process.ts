// One command running on a node: strips the pid frame from the output, signals the remote process group over a
// second channel, and ends with a clear reason when the connection drops (issue 13).
import { StringDecoder } from "node:string_decoder";
import type { ClientChannel } from "ssh2";
import { EOF_CHAR } from "../../engine/key-encoder.js";
import * as messages from "../../engine/messages.js";
import type { ExecutorProcess } from "../../engine/types.js";
import { createQueuedProcess } from "../executor-process.js";
import type { NodeConnection } from "./connection-pool.js";
import { PID_MARK, remoteKillLine } from "./remote-command.js";

type Signal = "SIGTERM" | "SIGKILL";
const MARK_BYTE = PID_MARK.charCodeAt(0);
/** The pid frame is short; output that does not start with one within this many bytes is passed on as is. */
const MAX_FRAME_BYTES = 32;
/** How long a closed channel may take to end its output streams before the command is reported finished anyway. */
const STREAM_END_WAIT_MS = 1_000;

export interface RemoteProcess {
  readonly process: ExecutorProcess;
  /** Resolves once the remote pid is known (then `process.pid` is set) or the command ended first. */
  readonly started: Promise<void>;
  readonly done: Promise<void>;
  kill(signal: Signal): void;
}

export function startRemoteProcess(connection: NodeConnection, channel: ClientChannel, pty: boolean): RemoteProcess {
  const { process, events } = createQueuedProcess();
  let remotePid: number | undefined;
  let pendingSignal: Signal | undefined;
  let finished = false;
  let exitStatus: [number | null, string | null] = [null, null];
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let resolveStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));

  const sendSignal = (signal: Signal): void => {
    if (finished || connection.closed) return;
    if (remotePid === undefined) {
      pendingSignal = signal; // sent as soon as the pid frame arrives
      return;
    }
    runDetached(connection, remoteKillLine(remotePid, signal));
  };
  const finish = (code: number | null, signal: string | null): void => {
    if (finished) return;
    finished = true;
    stopWatchingClose();
    events.exit(code, signal);
    resolveStarted();
    resolveDone();
  };
  const stopWatchingClose = connection.onClose(() => {
    if (finished) return;
    events.output("stderr", messages.sshConnectionLost(connection.node));
    finish(null, null);
  });

  // Terminal output as text, like a local terminal's, so terminal queries in it are seen (INPUT-16).
  const terminalText = pty ? new StringDecoder("utf8") : undefined;
  const frame = pidFrameReader((pid) => {
    remotePid = pid;
    process.pid = pid;
    resolveStarted();
    if (pendingSignal) sendSignal(pendingSignal);
  }, (chunk) => {
    resolveStarted(); // output without a pid frame: the pid stays unknown
    events.output("stdout", terminalText ? terminalText.write(chunk) : chunk);
  });
  channel.on("data", (chunk: Buffer) => frame(chunk));
  channel.stderr.on("data", (chunk: Buffer) => events.output("stderr", chunk));
  channel.on("exit", (code: number | null, signal?: string) => {
    exitStatus = [typeof code === "number" ? code : null, signal ?? null];
  });
  // The channel can close before its streams delivered their last chunks: finish once both ended too.
  let open = 3;
  const settle = (): void => {
    open -= 1;
    if (open === 0) finish(...exitStatus);
  };
  channel.once("end", settle);
  channel.stderr.once("end", settle);
  // ssh2 emits "exit" as it parses the exit status, which may be in the same read as the channel's opening, before
  // the listener above exists; "close" carries the same status, recorded by ssh2 whenever it came.
  channel.once("close", (code?: number | null, signal?: string) => {
    if (code !== undefined && exitStatus[0] === null && exitStatus[1] === null) {
      exitStatus = [typeof code === "number" ? code : null, signal ?? null];
    }
    settle();
    setTimeout(() => finish(...exitStatus), STREAM_END_WAIT_MS).unref();
  });

  if (pty) {
    process.stdin = terminalInput(channel, () => finished);
    process.reply = (data) => {
      if (!finished) channel.write(data);
    };
  }
  else channel.end(); // EXEC-45: no input for non-terminal commands
  process.kill = sendSignal;
  return { process, started, done, kill: sendSignal };
}

/** Reads `<mark>pid<mark>` off the front of stdout, then passes everything through. */
function pidFrameReader(onPid: (pid: number) => void, forward: (chunk: Buffer) => void): (chunk: Buffer) => void {
  let head: Buffer | undefined = Buffer.alloc(0);
  return (chunk) => {
    if (!head) return forward(chunk);
    head = Buffer.concat([head, chunk]);
    if (head[0] !== MARK_BYTE) return flush();
    const end = head.indexOf(MARK_BYTE, 1);
    if (end === -1) {
      if (head.length > MAX_FRAME_BYTES) flush();
      return;
    }
    const pid = Number(head.subarray(1, end).toString("latin1"));
    const rest = head.subarray(end + 1);
    head = undefined;
    if (Number.isInteger(pid) && pid > 0) onPid(pid);
    if (rest.length > 0) forward(rest);
  };
  function flush(): void {
    const all = head;
    head = undefined;
    if (all && all.length > 0) forward(all);
  }
}

function terminalInput(channel: ClientChannel, finished: () => boolean): NonNullable<ExecutorProcess["stdin"]> {
  let ended = false;
  return {
    write: (data) => new Promise<void>((resolve) => {
      if (finished()) return resolve();
      channel.write(typeof data === "string" ? data : Buffer.from(data), () => resolve());
    }),
    end: () => {
      if (!ended && !finished()) channel.write(EOF_CHAR); // PTY-07: the terminal itself stays open
      ended = true;
    },
    get writable() {
      return !ended && !finished();
    },
  };
}

/** Runs a short command on its own channel, ignoring its output; failures are ignored (the target may be gone). */
function runDetached(connection: NodeConnection, command: string): void {
  connection.client.exec(command, (error, channel) => {
    if (error) return;
    channel.on("data", () => {});
    channel.stderr.on("data", () => {});
    channel.end();
  });
}
