// createSandboxExecutor: runs `host: "sandbox"` commands inside bubblewrap (issue 13, EXEC-08, EXEC-09).
import { accessSync, constants } from "node:fs";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import {
  checkExecLimits, ExecProcessError, localShell, spawnLocal, type ExecutorProcess, type ExecutorSpawnRequest,
  type HostExecutor, type LocalProcess, type LocalProcessSink, type LocalSpawnRequest,
} from "../../engine/index.js";
import { createQueuedProcess } from "../executor-process.js";
import { bwrapArgs } from "./bwrap-args.js";
import { ensureBwrapUsable } from "./bwrap-probe.js";
import { openControlChannel, type ChannelOutcome, type ControlChannel } from "./control-channel.js";
import { planMounts, type MountPlan, type SandboxBind } from "./mount-plan.js";
import { endLeftovers, sandboxProcess } from "./sandbox-kill.js";
import { seccompProgram, seccompSupported } from "./seccomp-filter.js";
import { socketFolders } from "./socket-folders.js";
import { createStartGate } from "./start-gate.js";
import { LAUNCH_SHELL, launchArgs, supervisorLaunch, supervisorProgram, type SupervisorProgram } from "./supervisor.js";

export type { SandboxBind };

/** Default size limit of the sandbox's /tmp and of its /dev/shm (each): 256 MiB. */
export const DEFAULT_TMP_SIZE_BYTES = 256 * 1024 * 1024;
/** The smallest accepted tmpSizeBytes: one page. */
const MIN_TMP_SIZE_BYTES = 4096;
/**
 * How long spawn waits for the supervisor's report that the shell runs. The report takes tens of milliseconds; the
 * limit only matters if a command read its own report off the channel, which must not keep exec from returning.
 */
const START_REPORT_WAIT_MS = 10_000;
/** Output kept from before the shell ran, to say why bubblewrap stopped. */
const SETUP_OUTPUT_MAX_CHARS = 1024;
/**
 * Attempts at setting a sandbox up when bubblewrap fails on a host mount: it binds "/" with every mount under it, and
 * a mount that goes away meanwhile (a Docker engine's overlay as a container stops, an automount) fails that setup.
 * Nothing ran, so another attempt is safe; a mount that stays broken is reported after the last.
 */
const SETUP_ATTEMPTS = 3;
/** What bubblewrap says when a mount it set out to bind or remount changed under it (setupError's reason). */
const HOST_MOUNT_RACE = /^bubblewrap said "(Can't bind mount|Can't remount|Unable to apply mount flags|Can't mount)/;

export interface SandboxExecutorOptions {
  /** Host paths the command may write besides its working directory (real paths, mounted read-write). @default [] */
  writable?: string[];
  /** Share the host's network; false gives the sandbox its own network namespace with no interfaces. @default false */
  network?: boolean;
  /** The bubblewrap binary. @default "bwrap", looked up on PATH */
  bwrapPath?: string;
  /** Extra mounts, e.g. a cache directory or a read-only tool tree at another path. @default [] */
  binds?: SandboxBind[];
  /**
   * Directories the working directory must lie in, checked at every command with symbolic links resolved; a
   * workdir outside all of them is refused before anything runs. @default [the engine's cwd]
   */
  allowedRoots?: string[];
  /** Size limit of the sandbox's private /tmp and of its /dev/shm, each (memory, not disk). @default 256 MiB */
  tmpSizeBytes?: number;
  /**
   * The program that starts the shell inside the sandbox and reports how it ended: Perl where `perl` is on PATH
   * (on x64 and arm64), which starts in a thirtieth of the CPU; `"node"` keeps this Node binary. @default "auto"
   */
  supervisor?: "auto" | "node";
}

/** A HostExecutor for `executors.sandbox`: every command runs in a fresh bubblewrap sandbox. Never runs unsandboxed. */
export function createSandboxExecutor(options: SandboxExecutorOptions = {}): HostExecutor {
  // Looked up on this process's PATH once: the command's environment (with its own PATH) is for the command only.
  const bwrapPath = resolveExecutable(options.bwrapPath ?? "bwrap");
  const writable = [...(options.writable ?? [])];
  const binds = options.binds?.map((bind) => ({ ...bind })) ?? [];
  const allowedRoots = options.allowedRoots ? [...options.allowedRoots] : undefined;
  const network = options.network === true;
  const tmpSizeBytes = normalizeTmpSize(options.tmpSizeBytes);
  const supervisor = supervisorProgram(normalizeSupervisor(options.supervisor) === "node" ? undefined : findExecutable("perl"));
  const spawnOnce = async (request: ExecutorSpawnRequest): Promise<ExecutorProcess> => {
    const controlBase = await realpath(tmpdir());
    const hidden = [controlBase, ...(network ? [] : await socketFolders(request.env))];
    const plan = await planMounts({
      cwd: request.cwd, allowedRoots: allowedRoots ?? [request.defaultCwd], writable, binds, hidden, controlBase,
    });
    const channel = await openControlChannel(controlBase, network ? undefined : unixSocketFilter());
    let spawnRequest: LocalSpawnRequest;
    try {
      spawnRequest = launchRequest(request, plan, channel, { bwrapPath, network, tmpSizeBytes, supervisor });
      const tooLarge = checkExecLimits(spawnRequest); // the whole launch line, as the kernel will see it
      if (tooLarge !== undefined) throw tooLarge;
    } catch (error) {
      await channel.close();
      throw error;
    }
    return start(request.pty, spawnRequest, plan, channel);
  };
  return {
    async spawn(request: ExecutorSpawnRequest): Promise<ExecutorProcess> {
      await ensureBwrapUsable(bwrapPath);
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await spawnOnce(request);
        } catch (error) {
          if (attempt >= SETUP_ATTEMPTS || !ExecProcessError.is(error, "sandbox-setup-failed") || !HOST_MOUNT_RACE.test(error.data.reason)) throw error;
        }
      }
    },
  };
}

function launchRequest(
  request: ExecutorSpawnRequest, plan: MountPlan, channel: ControlChannel,
  settings: { bwrapPath: string; network: boolean; tmpSizeBytes: number; supervisor: SupervisorProgram },
): LocalSpawnRequest {
  const { shell, args: shellArgs } = localShell(request.env);
  const { args: supervisorArgs, env } = supervisorLaunch(settings.supervisor, plan.checks, request.env);
  const sandbox = bwrapArgs({
    cwd: plan.cwd, steps: plan.steps, network: settings.network, tmpSizeBytes: settings.tmpSizeBytes,
    seccomp: channel.seccompPath !== undefined,
  });
  const bwrapCommand = [settings.bwrapPath, ...sandbox, ...supervisorArgs, shell, ...shellArgs];
  // The launch wrapper runs on the host before bubblewrap: in "/", so no path of the command's is its cwd.
  return { shell: LAUNCH_SHELL, args: launchArgs(channel.fifoPath, channel.seccompPath, bwrapCommand), command: request.command, cwd: "/", env };
}

/** Starts the sandbox; resolves once the shell runs, rejects with a setup error when it never did. */
async function start(pty: boolean, spawnRequest: LocalSpawnRequest, plan: MountPlan, channel: ControlChannel): Promise<ExecutorProcess> {
  const { process, events } = createQueuedProcess();
  const startDeadline = Date.now() + START_REPORT_WAIT_MS;
  const startGate = createStartGate(() => channel.started() || Date.now() >= startDeadline);
  let setupOutput = "";
  let bwrapPid: number | undefined;
  let exited = false;
  let resolveCompleted: (outcome: ChannelOutcome & { code: number | null; signal: string | null }) => void = () => {};
  const completed = new Promise<Parameters<typeof resolveCompleted>[0]>((resolve) => (resolveCompleted = resolve));
  const sink: LocalProcessSink = {
    onOutput: (stream, chunk) => {
      if (!channel.started() && setupOutput.length < SETUP_OUTPUT_MAX_CHARS) {
        setupOutput += (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).slice(0, SETUP_OUTPUT_MAX_CHARS);
      }
      events.output(stream, chunk);
    },
    onExit: () => {
      exited = true;
      startGate.close();
      if (bwrapPid !== undefined) endLeftovers(bwrapPid);
    },
    // A signal that ended bwrap itself came from the engine's kill; otherwise the supervisor knows best.
    onComplete: (code, signal) => {
      void channel.finish().then((outcome) => {
        resolveCompleted({ ...outcome, code, signal });
        if (signal === null && outcome.exit) events.exit(outcome.exit.code, outcome.exit.signal);
        else events.exit(code, signal);
      });
    },
  };
  let child: LocalProcess;
  try {
    child = await spawnLocal(spawnRequest, sink, { pty });
  } catch (error) {
    startGate.close();
    await channel.close();
    throw error;
  }
  bwrapPid = child.pid;
  // The call returns once the command runs, as a local spawn does: the sandbox's start (bwrap, then the
  // supervisor) is not counted in the command's yield window or timeout.
  await startGate.settled();
  if (!channel.started() && exited) {
    const outcome = await completed;
    if (!outcome.started) throw setupError(outcome, plan, setupOutput);
  }
  if (channel.started()) void channel.removeDirectory();
  return sandboxProcess(process, child, startGate);
}

/** Why the shell never ran: a mount that changed under bubblewrap, a shell that cannot start, or bwrap's own error. */
function setupError(
  outcome: ChannelOutcome & { code: number | null; signal: string | null }, plan: MountPlan, output: string,
): ExecProcessError {
  const label = outcome.refused === undefined ? undefined : plan.labels[outcome.refused];
  if (label) {
    return new ExecProcessError({
      code: "sandbox-mount-refused", ...(label.option === "workdir" ? { param: "workdir" } : {}), ...label, problem: "changed",
    });
  }
  if (outcome.error !== undefined) return new ExecProcessError({ code: "spawn-failed", reason: outcome.error });
  const said = output.split(/\r?\n/).find((line) => line.startsWith("bwrap: "))?.slice("bwrap: ".length).trim();
  const ended = outcome.signal ? `signal ${outcome.signal}` : `exit code ${String(outcome.code)}`;
  const reason = said ? `bubblewrap said "${said.slice(0, 200)}"` : `bubblewrap ended (${ended}) before the command started`;
  return new ExecProcessError({ code: "sandbox-setup-failed", reason });
}

/** The seccomp program that keeps unix sockets closed (seccomp-filter.ts), for this host's architecture. */
function unixSocketFilter(): Buffer {
  if (!seccompSupported(process.arch)) {
    throw new ExecProcessError({
      code: "sandbox-setup-failed",
      reason: `there is no unix-socket filter for this processor architecture (${process.arch}); without network, only x64 and arm64 hosts are supported`,
    });
  }
  return seccompProgram(process.arch);
}

function normalizeSupervisor(value: unknown): "auto" | "node" {
  if (value === undefined || value === "auto" || value === "node") return value ?? "auto";
  throw new ExecProcessError({
    code: "invalid-option", owner: "createSandboxExecutor", option: "supervisor", value: String(value), expected: '"auto" or "node"',
  });
}

function normalizeTmpSize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TMP_SIZE_BYTES;
  if (Number.isSafeInteger(value) && value >= MIN_TMP_SIZE_BYTES) return value;
  throw new ExecProcessError({
    code: "invalid-option", owner: "createSandboxExecutor", option: "tmpSizeBytes", value: String(value),
    expected: `a whole number of bytes, at least ${MIN_TMP_SIZE_BYTES}`,
  });
}

function resolveExecutable(name: string): string {
  return name.includes("/") ? name : findExecutable(name) ?? name; // not found: the probe reports it as not installed
}

/** `name` on this process's PATH, or undefined. */
function findExecutable(name: string): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(dir || ".", name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
