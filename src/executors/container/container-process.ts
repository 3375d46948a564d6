// One command in a container (issues 21, 32): an exec of the wrapper (command-wrapper.ts) over pipes or a terminal,
// run with the command's own group id, its start frame read off stdout, its exact outcome after its end, kill of
// every process of that group through a second exec. A TERM is always followed by a KILL after the grace period,
// also when the exec itself already ended (a child under nohup outlives it). An engine that stops answering ends the
// command with the reason; one that goes away while it runs, too.
import { StringDecoder } from "node:string_decoder";
import { Writable, type Duplex } from "node:stream";
import type Dockerode from "dockerode";
import { ExecProcessError, LIMITS, TERMINAL_EOF, TERMINAL_SIZE, type ExecutorProcess } from "../../engine/index.js";
import * as messages from "../../engine/messages.js";
import { createQueuedProcess } from "../executor-process.js";
import { createPreambleReader } from "../ssh/preamble-reader.js";
import { KILL_DONE, killCommand, newMarker, parseOutcome, statusCommand, wrapperCommand } from "./command-wrapper.js";
import { watched, type WatchedEngine } from "./engine-watch.js";
import { execExitCode, execHelper, execOnce } from "./exec-call.js";

const { KILL_GRACE_MS } = LIMITS;

export interface ContainerCommand {
  engine: WatchedEngine & { docker: Dockerode };
  container: Dockerode.Container;
  command: string;
  workdir: string;
  env: Record<string, string>;
  pty: boolean;
  /** The memory limit as the out-of-memory note names it ("256 MiB"). */
  memoryLimit: string;
  /** The command's own group id, and the user it runs as (`<user>:<gid>`). */
  gid: number;
  user: string;
  /** Called once, after the command's end was reported. */
  onDone(): void;
}

/** Starts the command; resolves once its wrapper reported its process group (or its output ended without one). */
export async function startContainerCommand(spec: ContainerCommand): Promise<ExecutorProcess> {
  const marker = newMarker();
  const { engine, container, pty } = spec;
  const { docker } = engine;
  const exec = await watched(engine, container.exec({
    Cmd: wrapperCommand(marker, spec.workdir, pty, spec.command),
    Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
    User: spec.user, AttachStdin: pty, AttachStdout: true, AttachStderr: true, Tty: pty,
    ...(pty ? { ConsoleSize: [TERMINAL_SIZE.rows, TERMINAL_SIZE.cols] } : {}),
  } as Dockerode.ExecCreateOptions));
  const stream = await watched(engine, exec.start({ hijack: true, stdin: pty, Tty: pty }) as Promise<Duplex>);
  if (pty) {
    await watched(engine, exec.resize({ h: TERMINAL_SIZE.rows, w: TERMINAL_SIZE.cols }) as Promise<unknown>).catch(() => undefined);
    stream.write("\n"); // the wrapper's go line (command-wrapper.ts)
  }
  const { process, events } = createQueuedProcess();
  let pid: number | undefined;
  let oomAtStart: number | undefined;
  let finished = false;
  let resolveFrame = (): void => {};
  const framed = new Promise<void>((resolve) => (resolveFrame = resolve));
  // A terminal's output goes to the engine as text, which it reads for cursor-position requests and the cursor-key
  // mode (INPUT-16, KEYS-12); a character split across chunks waits for its rest.
  const terminalText = pty ? new StringDecoder("utf8") : undefined;
  const stdout = createPreambleReader(marker, (fields) => {
    const match = /^:(\d+):(\d+)$/.exec(fields ?? "");
    if (match) [pid, oomAtStart] = [Number(match[1]), Number(match[2])];
    resolveFrame();
  }, (chunk) => events.output("stdout", terminalText ? terminalText.write(chunk) : chunk));
  if (pty) stream.on("data", (chunk: Buffer) => stdout.write(chunk));
  else {
    const sink = (write: (chunk: Buffer) => void): Writable => new Writable({ write: (chunk: Buffer, _encoding, done) => { write(chunk); done(); } });
    docker.modem.demuxStream(stream, sink((chunk) => stdout.write(chunk)), sink((chunk) => events.output("stderr", chunk)));
  }

  let ending = false;
  const end = (code: number | null, signal: string | null, note?: string): void => {
    if (finished) return;
    if (note) events.output("stderr", note);
    finished = true;
    events.exit(code, signal);
    spec.onDone();
  };
  const finish = async (): Promise<void> => {
    if (ending) return;
    ending = true;
    stdout.end();
    resolveFrame();
    let code: number | null;
    try {
      code = await execExitCode(engine, exec);
    } catch (error) {
      // The engine went away (its connection refused) or stopped answering: the outcome is unknown, and says why.
      const note = ExecProcessError.is(error, "container-engine-unresponsive") ? `\n${error.message}\n` : messages.containerEngineLost(engine.endpoint);
      return end(null, null, note);
    }
    const statusRead = code !== null && code !== 0 ? await execOnce(engine, container, statusCommand(marker)) : undefined;
    const outcome = parseOutcome(code, statusRead, oomAtStart);
    end(outcome.code, outcome.signal, outcome.outOfMemory ? messages.containerOutOfMemory(spec.memoryLimit) : undefined);
  };
  stream.once("end", () => void finish());
  stream.once("close", () => void finish());
  stream.on("error", () => void finish());

  await framed;
  if (pid !== undefined) process.pid = pid;
  // Every process of the command's group, whatever it did to its session, environment or dumpability. A container
  // at its pidsLimit (a fork bomb) has no room for the kill exec: SIGKILL then ends the container. An engine that
  // stopped answering ends the command here, with the reason, at most ENGINE_ANSWER_MS after the kill.
  const sweep = (signal: "SIGTERM" | "SIGKILL"): void => {
    void execHelper(engine, container, killCommand(spec.gid, signal)).then((said) => said.trim() === KILL_DONE, (error: unknown) => {
      if (!ExecProcessError.is(error, "container-engine-unresponsive")) return false; // the engine refused the exec
      stream.destroy();
      end(null, signal, `\n${error.message}\n`);
      return true;
    }).then((swept) => {
      if (!swept && signal === "SIGKILL" && !finished) return container.kill().catch(() => undefined);
    });
  };
  let followUp: NodeJS.Timeout | undefined;
  process.kill = (signal) => {
    sweep(signal);
    if (signal === "SIGTERM" && !followUp) {
      followUp = setTimeout(() => sweep("SIGKILL"), KILL_GRACE_MS);
      followUp.unref();
    }
  };
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
