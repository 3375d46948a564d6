// A short helper command in a container (kill, status): run to its end, its stdout collected.
import { Writable, type Duplex } from "node:stream";
import type Dockerode from "dockerode";

/** Runs `cmd` without input or terminal; resolves with its stdout (errors: the empty string). */
export async function execOnce(docker: Dockerode, container: Dockerode.Container, cmd: string[]): Promise<string> {
  try {
    const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false }) as Duplex;
    const chunks: Buffer[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => { chunks.push(chunk); done(); } });
    const ignore = new Writable({ write: (_chunk, _encoding, done) => done() });
    docker.modem.demuxStream(stream, sink, ignore);
    await new Promise<void>((resolve) => {
      stream.once("end", resolve);
      stream.once("close", resolve);
      stream.once("error", () => resolve());
    });
    return Buffer.concat(chunks).toString("utf8");
  } catch {
    return "";
  }
}

/** The exit code of a finished exec: the engine may report it a moment after the output ended. */
export async function execExitCode(exec: Dockerode.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      const info = await exec.inspect();
      if (!info.Running) return typeof info.ExitCode === "number" ? info.ExitCode : null;
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, 10 * Math.min(attempt + 1, 10)));
  }
  return null;
}
