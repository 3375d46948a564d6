// Orchestrates one exec call: normalize, check the workdir, spawn, then race completion, yield and abort (§3).
import { abortError } from "../errors.js";
import * as messages from "../messages.js";
import type { Session } from "../session.js";
import type { ChildHandle, ChildSink, SpawnRequest } from "../spawn/child-handle.js";
import { spawnWithExecutor } from "../spawn/executor-backend.js";
import { execLimitError } from "../spawn/exec-limits.js";
import { selectShell, shellArgs } from "../spawn/shell.js";
import type { EngineContext } from "../engine-context.js";
import type { ExecDetails } from "../result-details.js";
import type { CallContext, ExecParams, ExecutorSpawnRequest, ToolResult } from "../types.js";
import { buildCommandEnv } from "./env-overrides.js";
import { foregroundResult, progressUpdate, runningResult, workdirFailure } from "./exec-results.js";
import { joinSameJob } from "./join-same-job.js";
import { normalizeExecParams, timeoutMs, type NormalizedExec } from "./normalize-exec.js";

export async function runExec(params: ExecParams, ctx: CallContext, engine: EngineContext): Promise<ToolResult<ExecDetails>> {
  engine.assertNotDisposed();
  if (ctx.signal?.aborted) throw abortError("before-start"); // EXEC-40
  const checkedAt = Date.now();
  const call = normalizeExecParams(params, ctx, engine);
  const { workdir, env } = call;
  if (!workdir.ok) return workdirFailure(workdir.requested, Date.now() - checkedAt, workdir.text); // EXEC-23
  if (!env.ok) throw env.error; // EXEC-03a: after the working directory
  const dedupeKey = engine.dedupe.enabled ? engine.dedupe.keyOf(call, workdir.cwd, env.overrides, ctx.scopeKey) : undefined;
  const sameJob = dedupeKey === undefined ? undefined : engine.dedupe.find(dedupeKey);
  if (sameJob) return joinSameJob(sameJob, call, ctx); // issue 34: no second process
  const session = engine.createSession(call.command, ctx.scopeKey, workdir.cwd);
  if (dedupeKey !== undefined) engine.dedupe.remember(dedupeKey, session);
  const warnings: string[] = [];
  const processToolAvailable = ctx.processToolAvailable !== false;
  if (!processToolAvailable && call.continuationRequested) warnings.push(messages.SYNC_MODE_WARNING); // EXEC-43
  // RES-24: a spawn that fails leaves no record, and the id is released.
  await session.start(async (sink) => {
    const started = await spawnCommand({
      call, cwd: workdir.cwd, envOverrides: env.overrides, scopeKey: ctx.scopeKey, signal: ctx.signal, engine, session,
    }, sink);
    warnings.push(...started.warnings);
    return started.child;
  });
  session.armTimeout(timeoutMs(call.timeoutSeconds));
  if (processToolAvailable && call.background) {
    session.background(); // EXEC-35
    return runningResult(session, warnings);
  }
  return waitInForeground(session, call, ctx, warnings, processToolAvailable);
}

/** Everything one command start needs: the checked call and where it runs. */
interface CommandStart {
  call: NormalizedExec;
  cwd: string;
  envOverrides: Record<string, string>;
  scopeKey: string;
  /** The call's abort signal, for an executor that makes the command wait (a free SSH channel). */
  signal: AbortSignal | undefined;
  engine: EngineContext;
  /** Marks a local command's environment (session-marker.ts). */
  session: Pick<Session, "markEnvironment">;
}

/** Spawns through the executor of the call, or locally over a PTY or pipes; returns the child and its warnings. */
async function spawnCommand(start: CommandStart, sink: ChildSink): Promise<{ child: ChildHandle; warnings: string[] }> {
  const { call, cwd, envOverrides, scopeKey, signal, engine } = start;
  const env = buildCommandEnv(engine.env, envOverrides, call.executor ? [] : engine.settings.pathPrepend);
  if (call.executor) {
    const request: ExecutorSpawnRequest = {
      command: call.command, cwd, defaultCwd: engine.cwd, env, envOverrides, pty: call.pty, elevated: call.elevated, scopeKey,
      ...(call.node !== undefined && call.executor.host === "node" ? { node: call.node } : {}), ...(signal ? { signal } : {}),
    };
    return { child: await spawnWithExecutor(call.executor.instance, request, sink), warnings: [] };
  }
  const shell = selectShell(engine.env);
  start.session.markEnvironment(env); // env is this call's own copy
  const request: SpawnRequest = { shell, args: shellArgs(shell), command: call.command, cwd, env };
  const tooLarge = execLimitError(request); // before the backend is chosen, so pipes and PTY fail alike
  if (tooLarge !== undefined) throw tooLarge;
  const { pipes, pty } = engine.backends;
  if (!call.pty) return { child: await pipes(request, sink), warnings: [] };
  try {
    return { child: await pty(request, sink), warnings: [] };
  } catch (error) {
    const warning = messages.ptyFallbackWarning((error as Error).message, call.command); // PTY-05
    return { child: await pipes(request, sink), warnings: [warning] };
  }
}

/** Waits for completion, the yield window (EXEC-34, EXEC-36) or the abort signal (EXEC-40). */
async function waitInForeground(
  session: Session, call: NormalizedExec, ctx: CallContext, warnings: string[], processToolAvailable: boolean,
): Promise<ToolResult<ExecDetails>> {
  const onUpdate = ctx.onUpdate;
  const stopUpdates = onUpdate && session.onOutput(() => {
    try {
      onUpdate(progressUpdate(session, warnings));
    } catch {
      // a failing listener must not break the command
    }
  });
  let yieldTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<"completed" | "yield" | "abort">((resolve) => {
    void session.completed.then(() => resolve("completed"));
    if (processToolAvailable) yieldTimer = setTimeout(() => resolve("yield"), call.yieldMs); // EXEC-42: none in sync mode
    if (ctx.signal) {
      onAbort = () => resolve("abort");
      if (ctx.signal.aborted) onAbort(); // aborted while the command was being spawned
      else ctx.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  clearTimeout(yieldTimer);
  if (onAbort) ctx.signal?.removeEventListener("abort", onAbort);
  stopUpdates?.();
  if (outcome === "abort" && session.state === "running") {
    session.cancelInForeground();
    throw abortError();
  }
  if (outcome === "yield" && session.state === "running") {
    session.background();
    return runningResult(session, warnings);
  }
  await session.completed; // EXEC-36: completed when the window closed
  return foregroundResult(session, {
    warnings, durationMs: (session.endedAt ?? Date.now()) - session.startedAt, timeoutSeconds: call.timeoutSeconds,
    processToolAvailable,
  });
}
