// A short helper command in a container (kill, status, the start check): run to its end, its stdout collected, at
// most `maxBytes` of it (a command that forged what the helper reads cannot grow the host's memory), and the engine
// watched (engine-watch.ts) so that a stopped engine cannot hold the caller.
import { Writable, type Duplex } from "node:stream";
import type Dockerode from "dockerode";
import { CONTAINER_LIMITS } from "./container-options.js";
import { watched, type WatchedEngine } from "./engine-watch.js";

export interface HelperExec {
  /** The user to run as; omitted: the container's. */
  user?: string;
  /** The most bytes of stdout kept; the exec's stream is destroyed past them. @default STATUS_MAX_BYTES */
  maxBytes?: number;
}

/** Runs `cmd` without input or terminal; resolves with its stdout (an engine error: the empty string). */
export async function execOnce(engine: WatchedEngine & { docker: Dockerode }, container: Dockerode.Container, cmd: string[], options: HelperExec = {}): Promise<string> {
  return (await execHelper(engine, container, cmd, options).catch(() => undefined)) ?? "";
}

/**
 * Runs `cmd` as execOnce does; rejects with container-engine-unresponsive when the engine stopped answering, and
 * with the engine's error when it refused the exec.
 */
export async function execHelper(engine: WatchedEngine & { docker: Dockerode }, container: Dockerode.Container, cmd: string[], options: HelperExec = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? CONTAINER_LIMITS.STATUS_MAX_BYTES;
  const exec = await watched(engine, container.exec({
    Cmd: cmd, AttachStdout: true, AttachStderr: true, ...(options.user === undefined ? {} : { User: options.user }),
  }));
  const stream = await watched(engine, exec.start({ hijack: true, stdin: false }) as Promise<Duplex>);
  const chunks: Buffer[] = [];
  let kept = 0;
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      if (kept < maxBytes) chunks.push(chunk.subarray(0, maxBytes - kept));
      kept += chunk.length;
      if (kept >= maxBytes) stream.destroy();
      done();
    },
  });
  const ignore = new Writable({ write: (_chunk, _encoding, done) => done() });
  engine.docker.modem.demuxStream(stream, sink, ignore);
  // A helper that blocks (a status file swapped for a FIFO) while the engine answers is cut off all the same.
  const cutOff = setTimeout(() => stream.destroy(), CONTAINER_LIMITS.HELPER_EXEC_MAX_MS);
  await watched(engine, new Promise<void>((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  })).catch((error: unknown) => {
    stream.destroy();
    throw error;
  }).finally(() => clearTimeout(cutOff));
  return Buffer.concat(chunks).toString("utf8");
}

/** The exit code of a finished exec: the engine may report it a moment after the output ended. */
export async function execExitCode(engine: WatchedEngine, exec: Dockerode.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const info = await watched(engine, exec.inspect());
    if (!info.Running) return typeof info.ExitCode === "number" ? info.ExitCode : null;
    await new Promise((resolve) => setTimeout(resolve, 10 * Math.min(attempt + 1, 10)));
  }
  return null;
}
