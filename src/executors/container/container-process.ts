// One command in a container (issue 21): an exec of the wrapper (command-wrapper.ts) over pipes or a terminal,
// its start frame read off stdout, its exact outcome after its end, kill through a second exec.
import { StringDecoder } from "node:string_decoder";
import { Writable, type Duplex } from "node:stream";
import type Dockerode from "dockerode";
import { TERMINAL_EOF, TERMINAL_SIZE, type ExecutorProcess } from "../../engine/index.js";
import * as messages from "../../engine/messages.js";
import { createQueuedProcess } from "../executor-process.js";
import { createPreambleReader } from "../ssh/preamble-reader.js";
import { KILL_DONE, killCommand, newMarker, parseOutcome, SESSION_MARKER_ENV, statusCommand, wrapperCommand } from "./command-wrapper.js";
import { execExitCode, execOnce } from "./exec-call.js";

export interface ContainerCommand {
  docker: Dockerode;
  container: Dockerode.Container;
  command: string;
  workdir: string;
  env: Record<string, string>;
  pty: boolean;
  /** The memory limit as the out-of-memory note names it ("256 MiB"). */
  memoryLimit: string;
  /** Called once, after the command's end was reported. */
  onDone(): void;
}

/** Starts the command; resolves once its wrapper reported its process group (or its output ended without one). */
export async function startContainerCommand(spec: ContainerCommand): Promise<ExecutorProcess> {
  const marker = newMarker();
  const { docker, container, pty } = spec;
  const exec = await container.exec({
    Cmd: wrapperCommand(marker, spec.workdir, pty, spec.command),
    Env: Object.entries({ ...spec.env, [SESSION_MARKER_ENV]: marker }).map(([key, value]) => `${key}=${value}`),
    AttachStdin: pty, AttachStdout: true, AttachStderr: true, Tty: pty,
    ...(pty ? { ConsoleSize: [TERMINAL_SIZE.rows, TERMINAL_SIZE.cols] } : {}),
  } as Dockerode.ExecCreateOptions);
  const stream = await exec.start({ hijack: true, stdin: pty, Tty: pty }) as Duplex;
  if (pty) {
    await exec.resize({ h: TERMINAL_SIZE.rows, w: TERMINAL_SIZE.cols }).catch(() => undefined);
    stream.write("\n"); // the wrapper's go line (command-wrapper.ts)
  }
  const { process, events } = createQueuedProcess();
  let pid: number | undefined;
  let finished = false;
  let resolveFrame = (): void => {};
  const framed = new Promise<void>((resolve) => (resolveFrame = resolve));
  // A terminal's output goes to the engine as text, which it reads for cursor-position requests and the cursor-key
  // mode (INPUT-16, KEYS-12); a character split across chunks waits for its rest.
  const terminalText = pty ? new StringDecoder("utf8") : undefined;
  const stdout = createPreambleReader(marker, (fields) => {
    const match = /^:(\d+)$/.exec(fields ?? "");
    if (match) pid = Number(match[1]);
    resolveFrame();
  }, (chunk) => events.output("stdout", terminalText ? terminalText.write(chunk) : chunk));
  if (pty) stream.on("data", (chunk: Buffer) => stdout.write(chunk));
  else {
    const sink = (write: (chunk: Buffer) => void): Writable => new Writable({ write: (chunk: Buffer, _encoding, done) => { write(chunk); done(); } });
    docker.modem.demuxStream(stream, sink((chunk) => stdout.write(chunk)), sink((chunk) => events.output("stderr", chunk)));
  }

  let ending = false;
  const finish = async (): Promise<void> => {
    if (ending) return;
    ending = true;
    stdout.end();
    resolveFrame();
    const code = await execExitCode(exec);
    const statusLine = code !== null && code > 128 ? await execOnce(docker, container, statusCommand(marker)) : undefined;
    const outcome = parseOutcome(code, statusLine);
    if (outcome.outOfMemory) events.output("stderr", messages.containerOutOfMemory(spec.memoryLimit));
    finished = true;
    events.exit(outcome.code, outcome.signal);
    spec.onDone();
  };
  stream.once("end", () => void finish());
  stream.once("close", () => void finish());
  stream.on("error", () => void finish());

  await framed;
  if (pid !== undefined) {
    process.pid = pid;
    const groupPid = pid;
    process.kill = (signal) => {
      if (finished) return;
      // A container at its pidsLimit (a fork bomb) has no room for the kill exec: SIGKILL then ends the container.
      void execOnce(docker, container, killCommand(groupPid, signal, marker)).then((said) => {
        if (said.trim() !== KILL_DONE && signal === "SIGKILL" && !finished) return container.kill().catch(() => undefined);
      });
    };
  }
  if (pty) {
    let inputEnded = false;
    process.stdin = {
      write: (data) => new Promise<void>((resolve) => {
        if (finished || stream.destroyed) return resolve();
        stream.write(typeof data === "string" ? data : Buffer.from(data), () => resolve());
      }),
      end: () => {
        if (!inputEnded && !finished) stream.write(TERMINAL_EOF); // PTY-07: the terminal itself stays open
        inputEnded = true;
      },
      get writable() {
        return !inputEnded && !finished;
      },
    };
    process.reply = (data) => {
      if (!finished && !stream.destroyed) stream.write(data);
    };
  }
  return process;
}
