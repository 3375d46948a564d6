// Validation of `env` overrides (EXEC-14, EXEC-16, EXEC-17) and the command environment (EXEC-15, SET-23).
import { ExecProcessError } from "../errors.js";
import { isBlockedOverrideKey, isNoPagerOverride } from "./env-block-list.js";
import { assertNoNulByte } from "./unsafe-strings.js";

const PORTABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FUNCTION_KEY = /^[A-Za-z_][A-Za-z0-9_()]*$/;
/** EXEC-17: de-duplicated, in plain `sort()` order (UTF-16 code units, so "B KEY" before "a-key"), as upstream. */
const sortedUnique = (keys: string[]): string[] => [...new Set(keys)].sort();

/**
 * Returns the accepted overrides under their trimmed names, or throws the Security Violation of EXEC-17.
 * Entries whose value is not a string are ignored.
 */
export function validateEnvOverrides(env: unknown): Record<string, string> {
  if (env === null || typeof env !== "object" || Array.isArray(env)) return {};
  const accepted: Record<string, string> = {};
  const blocked: string[] = [];
  const invalid: string[] = [];
  for (const [rawKey, value] of Object.entries(env)) {
    if (typeof value !== "string") continue;
    const key = rawKey.trim();
    if (!PORTABLE_KEY.test(key) && !FUNCTION_KEY.test(key)) {
      invalid.push(key || rawKey);
      continue;
    }
    const upper = key.toUpperCase();
    if (isNoPagerOverride(upper, value)) accepted[key] = "";
    else if (isBlockedOverrideKey(upper)) blocked.push(upper);
    else accepted[key] = value;
  }
  if (blocked.length > 0 || invalid.length > 0) {
    throw new ExecProcessError({
      code: "env-blocked", param: "env", blockedKeys: sortedUnique(blocked), invalidKeys: sortedUnique(invalid),
    });
  }
  for (const [key, value] of Object.entries(accepted)) assertNoNulByte("env", value, key);
  return accepted;
}

/** The environment of a spawned command: inherited strings, overrides, PATH prefix, OPENCLAW_SHELL (EXEC-14/15). */
export function buildCommandEnv(
  inherited: Record<string, string | undefined>, overrides: Record<string, string>, pathPrepend: readonly string[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) if (typeof value === "string") env[key] = value;
  Object.assign(env, overrides);
  if (pathPrepend.length > 0) {
    const inheritedPath = (env["PATH"] ?? "").split(":").filter((entry) => entry && !pathPrepend.includes(entry));
    env["PATH"] = [...pathPrepend, ...inheritedPath].join(":");
  }
  env["OPENCLAW_SHELL"] = "exec";
  return env;
}
