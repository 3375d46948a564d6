// Orchestrates one exec call: normalize, check the workdir, spawn, then race completion, yield and abort (§3).
import { abortError } from "../errors.js";
import * as messages from "../messages.js";
import { Session } from "../session.js";
import { createSessionId } from "../session-id.js";
import type { ChildHandle, SpawnRequest } from "../spawn/child-handle.js";
import { spawnWithExecutor } from "../spawn/executor-backend.js";
import { execLimitError } from "../spawn/exec-limits.js";
import { selectShell, shellArgs } from "../spawn/shell.js";
import type { EngineContext } from "../engine-context.js";
import type { ExecDetails } from "../result-details.js";
import type { CallContext, ExecParams, ToolResult } from "../types.js";
import { buildCommandEnv, validateEnvOverrides } from "./env-overrides.js";
import { foregroundResult, progressUpdate, runningResult, workdirFailure } from "./exec-results.js";
import { normalizeExecParams, timeoutMs, type NormalizedExec } from "./normalize-exec.js";
import { nulByteText } from "./unsafe-strings.js";
import { resolveExecutorWorkdir, resolveWorkdir } from "./workdir.js";

export async function runExec(params: ExecParams, ctx: CallContext, engine: EngineContext): Promise<ToolResult<ExecDetails>> {
  engine.assertNotDisposed();
  if (ctx.signal?.aborted) throw abortError("before-start"); // EXEC-40
  const call = normalizeExecParams(params, ctx, engine.settings, engine.executors);
  const checkedAt = Date.now();
  const unsafeWorkdir = nulByteText("workdir", call.workdir);
  if (unsafeWorkdir !== undefined) return workdirFailure(String(call.workdir), Date.now() - checkedAt, unsafeWorkdir);
  let cwd: string;
  if (call.executor) {
    cwd = resolveExecutorWorkdir(call.workdir, engine.cwd);
  } else {
    const workdir = resolveWorkdir(call.workdir, engine.cwd);
    if (!workdir.ok) return workdirFailure(workdir.requested, Date.now() - checkedAt); // EXEC-23
    cwd = workdir.cwd;
  }
  const envOverrides = validateEnvOverrides(call.env); // EXEC-03a: after the working directory
  const session = engine.createSession(call.command, ctx.scopeKey, cwd);
  const warnings: string[] = [];
  const processToolAvailable = ctx.processToolAvailable !== false;
  if (!processToolAvailable && call.continuationRequested) warnings.push(messages.SYNC_MODE_WARNING); // EXEC-43
  try {
    session.attach(await spawnCommand(call, cwd, envOverrides, session, engine, warnings, ctx.scopeKey, ctx.signal));
  } catch (error) {
    session.abandonStart(); // RES-24: no record, id released
    throw error;
  }
  session.armTimeout(timeoutMs(call.timeoutSeconds));
  if (processToolAvailable && call.background) {
    session.background(); // EXEC-35
    return runningResult(session, warnings);
  }
  return waitInForeground(session, call, ctx, warnings, processToolAvailable);
}

async function spawnCommand(
  call: NormalizedExec, cwd: string, envOverrides: Record<string, string>, session: Session, engine: EngineContext,
  warnings: string[], scopeKey: string, signal: AbortSignal | undefined,
): Promise<ChildHandle> {
  const env = buildCommandEnv(engine.env, envOverrides, call.executor ? [] : engine.settings.pathPrepend);
  const { sink } = session;
  if (call.executor) {
    const request = { command: call.command, cwd, defaultCwd: engine.cwd, env, envOverrides, pty: call.pty, elevated: call.elevated, scopeKey,
      ...(call.node !== undefined && call.executor.host === "node" ? { node: call.node } : {}), ...(signal ? { signal } : {}) };
    return spawnWithExecutor(call.executor.instance, request, sink);
  }
  const shell = selectShell(engine.env);
  session.markEnvironment(env); // after the overrides
  const request: SpawnRequest = { shell, args: shellArgs(shell), command: call.command, cwd, env };
  const tooLarge = execLimitError(request); // before the backend is chosen, so pipes and PTY fail alike
  if (tooLarge !== undefined) throw tooLarge;
  const { pipes, pty } = engine.backends;
  if (!call.pty) return pipes(request, sink);
  try {
    return await pty(request, sink);
  } catch (error) {
    warnings.push(messages.ptyFallbackWarning((error as Error).message, call.command)); // PTY-05
    return pipes(request, sink);
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
