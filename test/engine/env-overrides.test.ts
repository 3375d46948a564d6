// src/engine/exec/env-overrides.ts: the `env` override check (EXEC-16, EXEC-17) and the environment a command gets
// (EXEC-14, EXEC-15, SET-23).
import { describe, expect, it } from "vitest";
import { buildCommandEnv, validateEnvOverrides } from "../../src/engine/exec/env-overrides.js";
import * as messages from "../../src/engine/messages.js";

describe("validateEnvOverrides", () => {
  it("accepts portable keys under their trimmed names and keeps the values literally (EXEC-14)", () => {
    expect(validateEnvOverrides({ " FOO ": "$HOME", bar_2: "~/x", "fn()": "body" }))
      .toEqual({ FOO: "$HOME", bar_2: "~/x", "fn()": "body" });
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["an array", ["A=1"]],
    ["a string", "A=1"],
  ])("treats %s as no overrides", (_label, env) => {
    expect(validateEnvOverrides(env)).toEqual({});
  });

  it("ignores entries whose value is not a string, even under a blocked key (EXEC-16)", () => {
    expect(validateEnvOverrides({ PATH: 1, LD_PRELOAD: null, KEEP: "yes", COUNT: 3 })).toEqual({ KEEP: "yes" });
  });

  it("refuses PATH alone with the PATH message, whatever its case (EXEC-17)", () => {
    expect(() => validateEnvOverrides({ path: "/x" })).toThrow(messages.PATH_FORBIDDEN);
  });

  it("drops a single blocked key and names it upper-cased in the error (EXEC-17)", () => {
    expect(() => validateEnvOverrides({ ld_preload: "/x.so" })).toThrow(messages.envKeyForbidden("LD_PRELOAD"));
  });

  it.each([
    ["ld_library_path", "LD_LIBRARY_PATH"],
    ["DYLD_INSERT_LIBRARIES", "DYLD_INSERT_LIBRARIES"],
    ["BASH_FUNC_greet()", "BASH_FUNC_GREET()"],
    ["Node_Options", "NODE_OPTIONS"],
    ["GIT_EXEC_PATH", "GIT_EXEC_PATH"],
  ])("blocks %s by its prefix or the blocked list and names it as %s (EXEC-16, EXEC-17)", (key, named) => {
    expect(() => validateEnvOverrides({ [key]: "v" })).toThrow(messages.envKeyForbidden(named));
  });

  it.each(["MY_LD_LIBRARY", "GIT_SSHX", "PATHS", "_private"])("accepts %s, which only resembles a blocked key (EXEC-16)", (key) => {
    expect(validateEnvOverrides({ [key]: "v" })).toEqual({ [key]: "v" });
  });

  it("lists several blocked keys de-duplicated and sorted in one part (EXEC-17)", () => {
    expect(() => validateEnvOverrides({ NODE_OPTIONS: "a", ld_preload: "b", LD_PRELOAD: "c" }))
      .toThrow(messages.envViolation([messages.blockedKeysPart(["LD_PRELOAD", "NODE_OPTIONS"])], false));
  });

  it("names an invalid key as given after trimming, or raw when trimming leaves nothing (EXEC-17)", () => {
    expect(() => validateEnvOverrides({ " BAD KEY ": "1", "  ": "2" }))
      .toThrow(messages.envViolation([messages.invalidKeysPart(["  ", "BAD KEY"].sort((a, b) => a.localeCompare(b)))], false));
  });

  it("uses the PATH form with both parts when PATH is among several problems (EXEC-17)", () => {
    const expected = messages.envViolation(
      [messages.blockedKeysPart(["IFS", "PATH"]), messages.invalidKeysPart(["1X"])], true);
    expect(() => validateEnvOverrides({ PATH: "/x", IFS: " ", "1X": "y", OK: "fine" })).toThrow(expected);
  });

  it("pins the documented texts of the three EXEC-17 examples", () => {
    expect(() => validateEnvOverrides({ PATH: "/x" }))
      .toThrow("Security Violation: Custom 'PATH' variable is forbidden during host execution.");
    expect(() => validateEnvOverrides({ LD_PRELOAD: "/x.so" }))
      .toThrow("Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution.");
    expect(() => validateEnvOverrides({ "BAD KEY": "1" }))
      .toThrow("Security Violation: invalid non-portable override keys: BAD KEY.");
  });

  it("refuses a NUL byte in an accepted value and names the variable (EXEC-28)", () => {
    expect(() => validateEnvOverrides({ GOOD: "a\u0000b" })).toThrow(messages.nulByteIn('env "GOOD"', 1));
  });
});

describe("buildCommandEnv", () => {
  it("keeps only the string values of the inherited environment and lays the overrides on top (EXEC-14)", () => {
    const env = buildCommandEnv({ A: "1", B: undefined, C: "inherited" }, { C: "override" }, []);
    expect(env).toEqual({ A: "1", C: "override", OPENCLAW_SHELL: "exec" });
  });

  it("sets OPENCLAW_SHELL=exec over an inherited or overriding value (EXEC-15)", () => {
    expect(buildCommandEnv({ OPENCLAW_SHELL: "zsh" }, { OPENCLAW_SHELL: "mine" }, [])["OPENCLAW_SHELL"]).toBe("exec");
  });

  it("puts the pathPrepend entries first and drops their later duplicates from the inherited PATH (SET-23)", () => {
    const env = buildCommandEnv({ PATH: "/usr/bin:/opt/tools:/bin::" }, {}, ["/opt/tools", "/home/me/bin"]);
    expect(env["PATH"]).toBe("/opt/tools:/home/me/bin:/usr/bin:/bin");
  });

  it("leaves PATH untouched without pathPrepend entries, and creates it from them when none is inherited", () => {
    expect(buildCommandEnv({ PATH: "/usr/bin::/bin" }, {}, [])["PATH"]).toBe("/usr/bin::/bin");
    expect(buildCommandEnv({}, {}, ["/opt/bin"])["PATH"]).toBe("/opt/bin");
  });

  it("does not change the inherited object it was given", () => {
    const inherited = { A: "1" };
    buildCommandEnv(inherited, { B: "2" }, ["/x"]);
    expect(inherited).toEqual({ A: "1" });
  });
});
