// Validation of `env` overrides (EXEC-14, EXEC-16, EXEC-17) and the command environment (EXEC-15, SET-23).
import { ExecProcessError } from "../errors.js";
import { assertNoNulByte } from "./unsafe-strings.js";

const PORTABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FUNCTION_KEY = /^[A-Za-z_][A-Za-z0-9_()]*$/;
const BLOCKED_PREFIXES = ["LD_", "DYLD_", "BASH_FUNC_"];
/** EXEC-16: keys that change how interpreters and tools load code. */
const BLOCKED_KEYS = new Set(`NODE_OPTIONS NODE_PATH PYTHONHOME PYTHONPATH PYTHONBREAKPOINT PERL5LIB PERL5OPT RUBYLIB
RUBYOPT RUBYSHELL BASH_ENV ENV SHELL SHELLOPTS PS4 IFS GCONV_PATH GLIBC_TUNABLES HOSTALIASES SSLKEYLOGFILE BROWSER
SUDO_ASKPASS CC CXX CMAKE_C_COMPILER CMAKE_CXX_COMPILER CMAKE_TOOLCHAIN_FILE CONFIG_SITE CONFIG_SHELL CARGO_BUILD_RUSTC
CARGO_BUILD_RUSTC_WRAPPER RUSTC_WRAPPER MAKEFLAGS MFLAGS JAVA_OPTS JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS
MAVEN_OPTS SBT_OPTS GRADLE_OPTS ANT_OPTS CATALINA_OPTS DOTNET_STARTUP_HOOKS DOTNET_ADDITIONAL_DEPS CORECLR_PROFILER
GIT_EDITOR GIT_EXTERNAL_DIFF GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR GIT_EXEC_PATH GIT_INDEX_FILE GIT_OBJECT_DIRECTORY
GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_NAMESPACE GIT_SEQUENCE_EDITOR GIT_TEMPLATE_DIR GIT_HOOK_PATH GIT_SSL_NO_VERIFY
GIT_SSL_CAINFO GIT_SSL_CAPATH HGRCPATH SVN_EDITOR SVN_SSH BZR_EDITOR BZR_SSH BZR_PLUGIN_PATH EXINIT VIMINIT MYVIMRC
GVIMINIT EMACSLOADPATH JULIA_EDITOR LUA_INIT LUA_INIT_5_1 LUA_INIT_5_2 LUA_INIT_5_3 LUA_INIT_5_4 ERL_AFLAGS ERL_FLAGS
ERL_ZFLAGS ELIXIR_ERL_OPTIONS R_ENVIRON R_PROFILE R_ENVIRON_USER R_PROFILE_USER HELM_PLUGINS PACKER_PLUGIN_PATH
VAGRANT_VAGRANTFILE`.split(/\s+/));

function isBlocked(upper: string): boolean {
  return upper === "PATH" || BLOCKED_KEYS.has(upper) || BLOCKED_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

const sortedUnique = (keys: string[]): string[] => [...new Set(keys)].sort((a, b) => a.localeCompare(b));

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
    if (isBlocked(upper)) blocked.push(upper);
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
