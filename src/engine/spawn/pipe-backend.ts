// Plain child process with pipes: stdin closed at spawn (EXEC-45), own process group (EXEC-46),
// completion only after exit and end-of-file on both pipes (REG-04), output read into a reused buffer (pipe-reader).
import { spawn, type ChildProcess } from "node:child_process";
import { spawnError } from "../errors.js";
import type { ChildHandle, ChildSink, SpawnRequest, TerminationSignal } from "./child-handle.js";
import { readPipe, type PipeReader } from "./pipe-reader.js";
import { descriptorTargets, processesHolding, processTree, sendSignal } from "./process-tree.js";

const OUTPUT_FDS = [1, 2];
const OUTPUT_STREAMS = ["stdout", "stderr"] as const;

/** Spawns the command; resolves once the process started, rejects with the spawn error. */
export function spawnWithPipes(request: SpawnRequest, sink: ChildSink): Promise<ChildHandle> {
  let detached = true;
  let child: ChildProcess;
  try {
    child = spawnChild(request, true);
  } catch {
    // A detached spawn can fail where setsid is not permitted: fall back to signalling the tree (EXEC-46).
    detached = false;
    try {
      child = spawnChild(request, false);
    } catch (error) {
      return Promise.reject(spawnError(error));
    }
  }
  // Read from the first tick on: nothing may arrive before the readers are in place.
  const readers = OUTPUT_STREAMS.flatMap((stream) => {
    const pipe = child[stream];
    return pipe ? [readPipe(pipe, sink, stream, sink.copiesOutput === true)] : [];
  });
  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      if (child.pid === undefined) reject(spawnError(error));
    });
    child.once("spawn", () => {
      // Closed at once, not ended: the command reads end-of-file either way, and an end first sends a shutdown
      // request, which costs a turn of the event loop (issue 36).
      child.stdin?.on("error", () => {});
      child.stdin?.destroy();
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) => {
        child.once("exit", (code, signal) => {
          sink.onExit(code, signal);
          done([code, signal]);
        });
      });
      void Promise.all([exited, ...readers.map((reader) => reader.closed)])
        .then(([[code, signal]]) => sink.onComplete(code, signal));
      resolve(createHandle(child, detached, readers));
    });
  });
}

function spawnChild(request: SpawnRequest, detached: boolean): ChildProcess {
  return spawn(request.shell, [...request.args, request.command], {
    cwd: request.cwd,
    env: request.env,
    detached,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
}

function createHandle(child: ChildProcess, detached: boolean, readers: readonly PipeReader[]): ChildHandle {
  const pid = child.pid;
  // The command's ends of its stdout and stderr, to find who still holds them after its exit (KILL-11). Read once the
  // session outlives its call (unref) or is signalled, while the shell still runs: not for every command, since
  // /proc of a process just started costs more than a third of what a foreground exec adds to its spawn (issue 36).
  // Node's stdio are socket pairs, so this end's name is not theirs.
  let outputTargets: Set<string> | undefined;
  const noteOutputTargets = (): Set<string> =>
    (outputTargets ??= new Set(pid === undefined ? [] : descriptorTargets(pid, OUTPUT_FDS)));
  return {
    pid,
    pty: false,
    cursorKeyMode: "normal",
    stdin: undefined,
    signal: pid === undefined ? undefined : (signal: TerminationSignal) => {
      noteOutputTargets();
      if (detached) sendSignal(-pid, signal);
      else for (const member of processTree(pid)) sendSignal(member, signal);
    },
    release() {
      for (const reader of readers) reader.stopDelivering();
    },
    outputHolders: () => processesHolding(noteOutputTargets()),
    unref() {
      noteOutputTargets();
      child.unref();
      for (const reader of readers) reader.unref();
    },
  };
}
