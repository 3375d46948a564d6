// createSandboxExecutor: runs `host: "sandbox"` commands inside bubblewrap (issue 13, EXEC-08, EXEC-09).
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { ExecProcessError } from "../../engine/errors.js";
import type { ChildHandle, ChildSink } from "../../engine/spawn/child-handle.js";
import { spawnWithPipes } from "../../engine/spawn/pipe-backend.js";
import { processGroupMembers, sendSignal, sessionMembers } from "../../engine/spawn/process-tree.js";
import { spawnWithPty } from "../../engine/spawn/pty-backend.js";
import { selectShell, shellArgs } from "../../engine/spawn/shell.js";
import type { ExecutorProcess, ExecutorSpawnRequest, HostExecutor } from "../../engine/types.js";
import { createQueuedProcess } from "../executor-process.js";
import { bwrapArgs, type SandboxBind } from "./bwrap-args.js";
import { createExitRecorder, STATUS_DIR_INSIDE } from "./exit-status.js";
import { ensureBwrapUsable } from "./bwrap-probe.js";
import { createStartGate, type StartGate } from "./start-gate.js";

export type { SandboxBind };

export interface SandboxExecutorOptions {
  /** Host paths the command may write besides its working directory (mounted read-write). @default [] */
  writable?: string[];
  /** Share the host's network; false gives the sandbox its own network namespace with no interfaces. @default false */
  network?: boolean;
  /** The bubblewrap binary. @default "bwrap", looked up on PATH */
  bwrapPath?: string;
  /** Extra mounts, e.g. a cache directory or a read-only tool tree at another path. @default [] */
  binds?: SandboxBind[];
}

/** A HostExecutor for `executors.sandbox`: every command runs in a fresh bubblewrap sandbox. Never runs unsandboxed. */
export function createSandboxExecutor(options: SandboxExecutorOptions = {}): HostExecutor {
  // Looked up on this process's PATH once: the command's environment (with its own PATH) is for the command only.
  const bwrapPath = resolveExecutable(options.bwrapPath ?? "bwrap");
  const writable = [...(options.writable ?? [])];
  const binds = [...(options.binds ?? [])];
  const network = options.network === true;
  return {
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      await ensureBwrapUsable(bwrapPath);
      if (!isDirectory(request.cwd)) {
        throw new ExecProcessError({ code: "sandbox-workdir-missing", param: "workdir", cwd: request.cwd });
      }
      const shell = selectShell(request.env);
      const recorder = createExitRecorder();
      const sandbox = bwrapArgs({
        cwd: request.cwd, writable, network,
        binds: [...binds, { source: recorder.hostDir, target: STATUS_DIR_INSIDE }],
      });
      const { NODE_OPTIONS: nodeOptions, ...env } = request.env;
      const spawnRequest = {
        shell: bwrapPath, args: [...sandbox, ...recorder.supervisorArgs(nodeOptions), shell, ...shellArgs(shell)],
        command: request.command, cwd: request.cwd, env,
      };
      const { process, events } = createQueuedProcess();
      const startGate = createStartGate(recorder.hasStarted);
      let bwrapPid: number | undefined;
      const sink: ChildSink = {
        onOutput: events.output,
        onExit: () => {
          startGate.close();
          if (bwrapPid !== undefined) endLeftovers(bwrapPid);
        },
        // A signal that ended bwrap itself came from the engine's kill; otherwise the supervisor knows best.
        onComplete: (code, signal) => {
          const recorded = recorder.collect();
          if (signal === null && recorded) events.exit(recorded.code, recorded.signal);
          else events.exit(code, signal);
        },
      };
      let child: ChildHandle;
      try {
        child = request.pty ? await spawnWithPty(spawnRequest, sink) : await spawnWithPipes(spawnRequest, sink);
      } catch (error) {
        startGate.close();
        recorder.collect();
        throw error;
      }
      bwrapPid = child.pid;
      // The call returns once the command runs, as a local spawn does: the sandbox's start (bwrap, then the
      // supervisor) is not counted in the command's yield window or timeout.
      await startGate.settled();
      return withChild(process, child, startGate);
    },
  };
}

/**
 * SIGTERM goes to the processes inside the sandbox only: bwrap would die of it at once and take the command down
 * without its grace period (KILL-08). It waits for the supervisor to run the shell (the start gate), so a kill
 * right after the start reaches the command too. SIGKILL goes at once to bwrap's whole group or terminal session;
 * `--die-with-parent` and the pid namespace end whatever escaped it once bwrap is gone.
 */
function withChild(process: ExecutorProcess, child: ChildHandle, startGate: StartGate): ExecutorProcess {
  const bwrapPid = child.pid;
  if (bwrapPid !== undefined) process.pid = bwrapPid;
  if (child.stdin) process.stdin = child.stdin;
  const signal = child.signal;
  if (signal && bwrapPid !== undefined) {
    process.kill = (name) => {
      if (name === "SIGKILL") return signal(name);
      startGate.run(() => {
        for (const pid of processesInside(bwrapPid)) sendSignal(pid, name);
      });
    };
  }
  // No reply: the sandbox's own terminal answers cursor-position requests (spawnWithPty, INPUT-16).
  return process;
}

/**
 * A signal that reaches bwrap while it is still setting up can end it before its child armed `--die-with-parent`;
 * that child is the init of the sandbox's pid namespace and ignores SIGTERM from outside, so the sandbox would live
 * on. Once bwrap has exited, SIGKILL whatever is left in its process group: killing that init ends the namespace.
 */
function endLeftovers(bwrapPid: number): void {
  for (const pid of processGroupMembers(bwrapPid)) sendSignal(pid, "SIGKILL");
}

/** bwrap's session (it leads one: detached or terminal spawn) without bwrap and the namespace init it forked. */
function processesInside(bwrapPid: number): number[] {
  const members = sessionMembers(bwrapPid);
  const init = members.find((p) => p.ppid === bwrapPid);
  return members.filter((p) => p.pid !== bwrapPid && p.pid !== init?.pid).map((p) => p.pid);
}

function resolveExecutable(name: string): string {
  if (name.includes("/")) return name;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(dir || ".", name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return name; // the probe reports it as not installed
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
