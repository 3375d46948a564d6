// src/engine/exec/env-block-list.ts: upstream 2026.9.6's override block list (EXEC-16): keys, prefixes, Cargo target
// linkers and runners, and the pager exception.
import { describe, expect, it } from "vitest";
import { BLOCKED_OVERRIDE_KEYS, isBlockedOverrideKey, isNoPagerOverride } from "../../src/engine/exec/env-block-list.js";

describe("the override block list (EXEC-16)", () => {
  it.each(["PATH", "LD_PRELOAD", "NODE_OPTIONS", "LDFLAGS", "HOME", "GIT_SSH_COMMAND", "NPM_TOKEN", "PAGER"])(
    "blocks %s", (key) => {
      expect(isBlockedOverrideKey(key)).toBe(true);
    },
  );

  it.each(["LD_ANYTHING", "DYLD_INSERT_LIBRARIES", "BASH_FUNC_x%%", "GIT_CONFIG_COUNT", "NPM_CONFIG_REGISTRY",
    "CARGO_REGISTRIES_MINE_TOKEN", "TF_VAR_secret"].map((key) => key.toUpperCase()))("blocks %s by its prefix", (key) => {
    expect(isBlockedOverrideKey(key)).toBe(true);
  });

  it("blocks a Cargo target's linker and runner, not its other keys", () => {
    expect(isBlockedOverrideKey("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER")).toBe(true);
    expect(isBlockedOverrideKey("CARGO_TARGET_AARCH64_APPLE_DARWIN_RUNNER")).toBe(true);
    expect(isBlockedOverrideKey("CARGO_TARGET_DIR")).toBe(false);
  });

  it.each(["MY_LD_LIBRARY", "PATHS", "GIT_SSHX", "CI", "NODE_ENV", "FOO_BAR"])("lets %s through", (key) => {
    expect(isBlockedOverrideKey(key)).toBe(false);
  });

  it("holds upper-case keys only, each once", () => {
    for (const key of BLOCKED_OVERRIDE_KEYS) expect(key).toBe(key.toUpperCase());
    expect(BLOCKED_OVERRIDE_KEYS.size).toBeGreaterThan(200);
  });

  it("accepts PAGER and GIT_PAGER only when they turn the pager off", () => {
    expect(["PAGER", "GIT_PAGER"].flatMap((key) => ["", "cat"].map((value) => isNoPagerOverride(key, value)))).toEqual([true, true, true, true]);
    expect(isNoPagerOverride("PAGER", "less")).toBe(false);
    expect(isNoPagerOverride("EDITOR", "cat")).toBe(false);
  });
});
