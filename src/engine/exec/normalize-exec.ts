// One pipeline from raw exec arguments to a normalized call (EXEC-01 … EXEC-31): every check runs here, once.
// Checks (1)–(4) of EXEC-03a throw; the working directory (5) and the environment overrides (6) are checked too, and
// their outcome kept as data, so that the caller reports a workdir failure (a returned result) before an env
// refusal (a thrown error), as EXEC-03a orders.
import { ExecProcessError } from "../errors.js";
import { MS_PER_SECOND, YIELD_MAX_MS, YIELD_MIN_MS, type Settings } from "../settings.js";
import type { CallContext, ExecParams, HostExecutor } from "../types.js";
import { validateEnvOverrides } from "./env-overrides.js";
import { assertNoNulByte, nulByteText } from "./unsafe-strings.js";
import { resolveExecutorWorkdir, resolveWorkdir } from "./workdir.js";

const HOSTS = ["auto", "sandbox", "gateway", "node"] as const;
type Host = (typeof HOSTS)[number];

/** EXEC-18 … EXEC-20, EXEC-23, EXEC-28: the directory to run in, or the failure returned instead of running. */
export type WorkdirCheck = { ok: true; cwd: string } | { ok: false; requested: string; text?: string };
/** EXEC-14, EXEC-16, EXEC-17: the accepted overrides, or the refusal thrown once the workdir is known to be usable. */
export type EnvCheck = { ok: true; overrides: Record<string, string> } | { ok: false; error: unknown };

export interface NormalizedExec {
  command: string;
  /** Where the command runs: the local machine or a registered executor. */
  executor: { host: "sandbox" | "node"; instance: HostExecutor } | undefined;
  node: string | undefined;
  elevated: boolean;
  /** Local: resolved, real and checked. Executor: resolved against the engine's cwd, unchecked (EXEC-09). */
  workdir: WorkdirCheck;
  env: EnvCheck;
  pty: boolean;
  background: boolean;
  yieldMs: number;
  /** The effective timeout in seconds, or undefined for none (EXEC-30, EXEC-31). */
  timeoutSeconds: number | undefined;
  /** background true or a numeric yieldMs was supplied (EXEC-43, as upstream 2026.9.6). */
  continuationRequested: boolean;
}

export interface ExecEnvironment {
  settings: Settings;
  executors: { sandbox?: HostExecutor; node?: HostExecutor };
  /** The engine's working directory, against which `workdir` resolves (EXEC-18). */
  cwd: string;
}

export function normalizeExecParams(params: ExecParams, ctx: CallContext, { settings, executors, cwd }: ExecEnvironment): NormalizedExec {
  const command = params.command;
  if (typeof command !== "string" || command === "") throw new ExecProcessError({ code: "missing-command", param: "command" }); // EXEC-02
  assertNoNulByte("command", command); // with the command check (EXEC-03a step 1)
  const host = normalizeHost(params.host);
  const elevated = params.elevated === true;
  if (elevated && ctx.allowElevated !== true) throw new ExecProcessError({ code: "elevation-unavailable", param: "elevated" }); // EXEC-11
  const executor = selectExecutor(host, elevated, executors);
  return {
    command,
    executor,
    node: typeof params.node === "string" ? params.node : undefined,
    elevated,
    workdir: checkWorkdir(params.workdir, cwd, executor !== undefined),
    env: checkEnv(params.env),
    pty: params.pty === true,
    background: params.background === true,
    yieldMs: normalizeYieldMs(params.yieldMs, settings.yieldMs),
    timeoutSeconds: normalizeTimeoutSeconds(params, settings.defaultTimeoutSeconds),
    continuationRequested: params.background === true || typeof params.yieldMs === "number",
  };
}

function checkWorkdir(workdir: unknown, cwd: string, throughExecutor: boolean): WorkdirCheck {
  const unsafe = nulByteText("workdir", workdir);
  if (unsafe !== undefined) return { ok: false, requested: String(workdir), text: unsafe };
  if (throughExecutor) return { ok: true, cwd: resolveExecutorWorkdir(workdir, cwd) };
  return resolveWorkdir(workdir, cwd);
}

function checkEnv(env: unknown): EnvCheck {
  try {
    return { ok: true, overrides: validateEnvOverrides(env) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** EXEC-05 … EXEC-07: omitted or "" means auto; values are compared case-insensitively; anything else is rejected. */
function normalizeHost(host: unknown): Host {
  if (host === undefined || host === "") return "auto";
  const lower = typeof host === "string" ? host.toLowerCase() : undefined;
  if (lower !== undefined && (HOSTS as readonly string[]).includes(lower)) return lower as Host;
  throw new ExecProcessError({ code: "invalid-host", param: "host", value: String(host) });
}

/** EXEC-08, EXEC-13: sandbox and node need an executor; elevation runs locally except for node. */
function selectExecutor(
  host: Host, elevated: boolean, executors: { sandbox?: HostExecutor; node?: HostExecutor },
): NormalizedExec["executor"] {
  if (host === "auto" || host === "gateway" || (elevated && host === "sandbox")) return undefined;
  const instance = executors[host];
  if (!instance) throw new ExecProcessError({ code: "host-unavailable", param: "host", host });
  return { host, instance };
}

/** EXEC-22: clamped to 10–120000; 0 or negative → 10; non-finite → the default window. */
export function normalizeYieldMs(value: unknown, defaultMs: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return defaultMs;
  return Math.min(YIELD_MAX_MS, Math.max(YIELD_MIN_MS, value));
}

/** EXEC-04, EXEC-29 … EXEC-31: the per-call value (or its alias), else the default; ≤ 0 or non-finite = none. */
export function normalizeTimeoutSeconds(params: ExecParams, defaultSeconds: number): number | undefined {
  const value = typeof params.timeoutSeconds === "number" ? params.timeoutSeconds
    : typeof params.timeout === "number" ? params.timeout : defaultSeconds;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export const timeoutMs = (seconds: number | undefined): number | undefined =>
  seconds === undefined ? undefined : Math.round(seconds * MS_PER_SECOND);
