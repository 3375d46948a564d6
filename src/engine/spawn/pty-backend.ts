// Pseudo-terminal backend over node-pty, loaded lazily on first use (PTY-11).
import { constants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import type { IPty } from "node-pty";
import { ExecProcessError } from "../errors.js";
import { EOF_CHAR } from "../key-encoder.js";
import { PTY_COLS, PTY_ROWS } from "../settings.js";
import type { ChildHandle, ChildSink, SpawnRequest, TerminationSignal } from "./child-handle.js";
import { processGroupsOfSession, sendSignal } from "./process-tree.js";
import { drainBeforeClose, masterOf } from "./pty-master.js";
import { TerminalOutput } from "./terminal-output.js";
import { PtyWriter } from "./pty-writer.js";

type NodePty = typeof import("node-pty");

let loading: Promise<NodePty> | undefined;

function loadNodePty(): Promise<NodePty> {
  loading ??= import("node-pty").then((module) => ((module as { default?: NodePty }).default ?? module) as NodePty);
  return loading;
}

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(constants.signals).map(([name, number]) => [number, name]),
);

/** node-pty reports a signal death as exitCode 0 plus a signal number (TOOLCHAIN.md). */
function exitFields(exitCode: number, signal: number | undefined): [number | null, string | null] {
  if (signal) return [null, SIGNAL_NAMES.get(signal) ?? `SIG${signal}`];
  return [exitCode, null];
}

/** TERM for the terminal: the inherited one unless unset, empty or `dumb` (PTY-03). */
export function terminalName(env: Record<string, string>): string {
  const term = env["TERM"];
  return term && term !== "dumb" ? term : "xterm-256color";
}

// A path that starts a word: absolute, relative (`./`, `../`) or a file URL, up to a quote, bracket, comma or space.
const PATH_PATTERN = /(?<=^|[\s'"`(])(?:file:\/\/)?\.{0,2}\/[^\s'"`(),]*/g;

/**
 * The reason a terminal could not be started, as one line for the model (PTY-05): the first line of the error,
 * without Node's require stack, its "imported from <file>" and the directories of any path (node-pty's load error
 * names every file it tried under the host's node_modules).
 */
export function describePtyFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = (message.split("\n")[0] ?? "").replace(/\s+imported from\s.*$/, "");
  const text = firstLine.replace(PATH_PATTERN, (path) => path.split("/").filter(Boolean).pop() ?? "").trim();
  return text || "unknown error";
}

async function openTerminal(request: SpawnRequest, name: string): Promise<IPty> {
  try {
    const pty = await loadNodePty();
    return pty.spawn(request.shell, [...request.args, request.command], {
      name,
      cols: PTY_COLS,
      rows: PTY_ROWS,
      cwd: request.cwd,
      env: { ...request.env, TERM: name },
      encoding: null, // bytes, decoded here, so that output read while the terminal closes joins the stream exactly
    });
  } catch (error) {
    throw new ExecProcessError({ code: "pty-unavailable", reason: describePtyFailure(error) }, { cause: error });
  }
}

/** Spawns the command in a 120×30 terminal (PTY-02); rejects with a one-line reason when it cannot be started. */
export async function spawnWithPty(request: SpawnRequest, sink: ChildSink): Promise<ChildHandle> {
  const name = terminalName(request.env);
  const terminal = await openTerminal(request, name);
  const master = masterOf(terminal);
  const writer = master ? new PtyWriter(master.fd, () => !master.socket.destroyed) : undefined;
  const send = (data: string | Uint8Array, bounded = true): void => {
    if (writer) writer.write(data, bounded);
    else terminal.write(typeof data === "string" ? data : Buffer.from(data));
  };
  let ended = false;
  let exited = false;
  // Queries are answered even after input ended (INPUT-16), not once the terminal is gone.
  const output = new TerminalOutput((reply) => {
    if (!exited) send(reply, false);
  });
  const decoder = new StringDecoder("utf8");
  const deliver = (bytes: Buffer): void => {
    const text = decoder.write(bytes);
    if (text) sink.onOutput("stdout", output.read(text));
  };
  if (master) drainBeforeClose(master, deliver);
  const dataListener = terminal.onData((data) => deliver(data as unknown as Buffer));
  // node-pty reports the exit only after the terminal's stream has closed (or after its bounded fallback for a
  // stream that never closes), and the close has read the rest of the output (drainBeforeClose): all output is in.
  const exitListener = terminal.onExit(({ exitCode, signal }) => {
    exited = true;
    writer?.close();
    const rest = decoder.end();
    if (rest) sink.onOutput("stdout", output.read(rest));
    sink.onExit();
    const [code, signalName] = exitFields(exitCode, signal);
    sink.onComplete(code, signalName);
  });
  const pid = terminal.pid;
  return {
    pid,
    pty: true,
    get cursorKeyMode() {
      return output.cursorKeyMode;
    },
    stdin: {
      write: async (data) => {
        if (!exited) send(data);
      },
      end: () => {
        if (!ended && !exited) send(EOF_CHAR, false); // PTY-07: the terminal itself stays open
        ended = true;
      },
      get writable() {
        return !ended && !exited;
      },
    },
    // PTY-08: every process group of the terminal's session, not only the shell's.
    signal: (signal: TerminationSignal) => {
      for (const group of new Set([pid, ...processGroupsOfSession(pid)])) sendSignal(-group, signal);
    },
    release() {
      dataListener.dispose();
      exitListener.dispose();
      writer?.close();
    },
  };
}
