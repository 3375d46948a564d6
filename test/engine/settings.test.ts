import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  LIMITS,
  POLL_BACKOFF_MS,
  SETTINGS_TABLE,
  TAIL_CHARS,
  describeSettingsTable,
  parseStrictInteger,
  resolveSettings,
  type ExecConfig,
  type Settings,
} from "../../src/engine/settings.js";

type Env = Record<string, string | undefined>;
const withEnv = (env: Env): Settings => resolveSettings({ env });
const withExec = (exec: ExecConfig, env: Env = {}): Settings => resolveSettings({ env, config: { tools: { exec } } });

describe("parseStrictInteger (SET-04)", () => {
  it.each([
    ["0", 0], ["42", 42], ["+7", 7], ["-5", -5], ["  120000  ", 120_000], ["\t15\n", 15], ["007", 7],
    ["9007199254740991", Number.MAX_SAFE_INTEGER], ["-9007199254740991", -Number.MAX_SAFE_INTEGER],
  ])("accepts %j as %d", (input, expected) => {
    expect(parseStrictInteger(input)).toBe(expected);
  });

  it.each([
    "abc", "1.5", "1e3", "10ms", "0x10", "   ", "", "+", "-", "+-1", "1 000", "9007199254740992", "١٢", "Infinity",
  ])("rejects %j", (input) => {
    expect(parseStrictInteger(input)).toBeUndefined();
  });

  it("returns undefined for an unset value", () => {
    expect(parseStrictInteger(undefined)).toBeUndefined();
  });

  it("agrees with a reference regex plus Number for arbitrary strings", () => {
    const reference = (s: string): number | undefined => {
      if (!/^\s*[+-]?[0-9]+\s*$/.test(s)) return undefined;
      const n = Number(s.trim());
      return Number.isSafeInteger(n) ? n : undefined;
    };
    const strings = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.stringMatching(/^\s{0,3}[+-]?[0-9]{1,20}(\.[0-9])?\s{0,3}$/),
    );
    fc.assert(fc.property(strings, (s) => Object.is(parseStrictInteger(s), reference(s))), { numRuns: 2000 });
  });
});

describe("resolveSettings defaults", () => {
  it("uses the table defaults with an empty environment and no config", () => {
    expect(withEnv({})).toEqual({
      yieldMs: 10_000, maxOutputChars: 200_000, pendingMaxOutputChars: 30_000, jobTtlMs: 1_800_000,
      inputWaitIdleMs: 15_000, defaultTimeoutSeconds: 1_800, notifyOnExit: true, notifyOnExitEmptySuccess: false,
      pathPrepend: [], maxWatchesPerSession: 8, maxWatchesPerScope: 32, dedupeWindowMs: 0,
    });
  });

  it.each([
    [undefined, 0], [1_000, 1_000], [-5, 0], [10_000_000, 600_000], [Number.NaN, 0],
  ])("takes the engine option dedupeWindowMs %s as %s (issue 34: clamped, 0 is off)", (dedupeWindowMs, expected) => {
    const options = dedupeWindowMs === undefined ? { env: {} } : { env: {}, dedupeWindowMs };
    expect(resolveSettings(options).dedupeWindowMs).toBe(expected);
  });

  it("returns a deep-frozen object", () => {
    const settings = withExec({ pathPrepend: ["/opt/bin"] });
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.pathPrepend)).toBe(true);
  });
});

describe("environment fall-through (SET-06, SET-07, SET-08)", () => {
  it.each<[string, Env, keyof Settings, number]>([
    ["an invalid primary TTL ignores the alias", { OPENCLAW_BASH_JOB_TTL_MS: "abc", PI_BASH_JOB_TTL_MS: "120000" }, "jobTtlMs", 1_800_000],
    ["an empty primary TTL consults the alias", { OPENCLAW_BASH_JOB_TTL_MS: "", PI_BASH_JOB_TTL_MS: "120000" }, "jobTtlMs", 120_000],
    ["a TTL below the minimum is clamped", { OPENCLAW_BASH_JOB_TTL_MS: "5" }, "jobTtlMs", 60_000],
    ["a fractional primary yield ignores the alias", { OPENCLAW_BASH_YIELD_MS: "1.5", PI_BASH_YIELD_MS: "50" }, "yieldMs", 10_000],
    ["a whitespace-only primary is invalid, not empty", { OPENCLAW_BASH_YIELD_MS: "  ", PI_BASH_YIELD_MS: "50" }, "yieldMs", 10_000],
    ["an unset primary yield consults the alias", { PI_BASH_YIELD_MS: "50" }, "yieldMs", 50],
    ["the primary wins over the alias", { OPENCLAW_BASH_YIELD_MS: "20", PI_BASH_YIELD_MS: "50" }, "yieldMs", 20],
    ["an unset primary cap consults the alias", { PI_BASH_MAX_OUTPUT_CHARS: "5000" }, "maxOutputChars", 5_000],
    ["an invalid alias yields the default", { PI_BASH_JOB_TTL_MS: "1e3" }, "jobTtlMs", 1_800_000],
    ["the pending cap has no alias", { PI_BASH_PENDING_MAX_OUTPUT_CHARS: "2000" }, "pendingMaxOutputChars", 30_000],
    ["the input-wait threshold has no alias", { PI_PROCESS_INPUT_WAIT_IDLE_MS: "2000" }, "inputWaitIdleMs", 15_000],
  ])("%s", (_title, env, key, expected) => {
    expect(withEnv(env)[key]).toBe(expected);
  });
});

describe("environment clamps (SET-05, SET-09…SET-15)", () => {
  it.each<[string, string, keyof Settings, number]>([
    ["OPENCLAW_BASH_YIELD_MS", "0", "yieldMs", 10],
    ["OPENCLAW_BASH_YIELD_MS", "-500", "yieldMs", 10],
    ["OPENCLAW_BASH_YIELD_MS", "120001", "yieldMs", 120_000],
    ["OPENCLAW_BASH_YIELD_MS", " +2500 ", "yieldMs", 2_500],
    ["OPENCLAW_BASH_MAX_OUTPUT_CHARS", "999", "maxOutputChars", 1_000],
    ["OPENCLAW_BASH_MAX_OUTPUT_CHARS", "9999999", "maxOutputChars", 200_000],
    ["OPENCLAW_BASH_MAX_OUTPUT_CHARS", "10ms", "maxOutputChars", 200_000],
    ["OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "10", "pendingMaxOutputChars", 1_000],
    ["OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "500000", "pendingMaxOutputChars", 200_000],
    ["OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "0x10", "pendingMaxOutputChars", 30_000],
    ["OPENCLAW_BASH_JOB_TTL_MS", "99999999", "jobTtlMs", 10_800_000],
    ["OPENCLAW_BASH_JOB_TTL_MS", "-1", "jobTtlMs", 60_000],
    ["OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "1", "inputWaitIdleMs", 1_000],
    ["OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "700000", "inputWaitIdleMs", 600_000],
    ["OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "2000", "inputWaitIdleMs", 2_000],
  ])("%s=%j resolves %s to %d", (name, value, key, expected) => {
    expect(withEnv({ [name]: value })[key]).toBe(expected);
  });

  it("limits the default pending cap to the aggregate cap (OUT-12)", () => {
    const settings = withEnv({ OPENCLAW_BASH_MAX_OUTPUT_CHARS: "5000" });
    expect(settings.pendingMaxOutputChars).toBe(5_000);
  });

  it("limits an explicit pending cap to the aggregate cap (SET-11)", () => {
    const settings = withEnv({ OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1500", OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS: "20000" });
    expect(settings.pendingMaxOutputChars).toBe(1_500);
  });

  it("keeps a pending cap below the aggregate cap (OUT-18)", () => {
    const settings = withEnv({ OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1500", OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS: "1000" });
    expect(settings.pendingMaxOutputChars).toBe(1_000);
  });
});

describe("config values (SET-01, SET-02, SET-09, SET-12, SET-13, SET-24)", () => {
  it.each<[string, ExecConfig, Env, keyof Settings, number]>([
    ["config backgroundMs wins over the environment", { backgroundMs: 2_000 }, { OPENCLAW_BASH_YIELD_MS: "50" }, "yieldMs", 2_000],
    ["config backgroundMs 0 is clamped to 10", { backgroundMs: 0 }, {}, "yieldMs", 10],
    ["config backgroundMs above the range is clamped", { backgroundMs: 500_000 }, {}, "yieldMs", 120_000],
    ["a fractional config backgroundMs is kept", { backgroundMs: 12.5 }, {}, "yieldMs", 12.5],
    ["a string backgroundMs is absent", { backgroundMs: "2000" }, { OPENCLAW_BASH_YIELD_MS: "50" }, "yieldMs", 50],
    ["a null backgroundMs is absent", { backgroundMs: null }, { PI_BASH_YIELD_MS: "60" }, "yieldMs", 60],
    ["a NaN backgroundMs is absent", { backgroundMs: Number.NaN }, {}, "yieldMs", 10_000],
    ["an infinite backgroundMs is absent", { backgroundMs: Number.POSITIVE_INFINITY }, {}, "yieldMs", 10_000],
    ["config cleanupMs wins over the environment", { cleanupMs: 120_000 }, { OPENCLAW_BASH_JOB_TTL_MS: "90000" }, "jobTtlMs", 120_000],
    ["config cleanupMs 0 means the minimum", { cleanupMs: 0 }, {}, "jobTtlMs", 60_000],
    ["a negative config cleanupMs means the minimum", { cleanupMs: -5 }, {}, "jobTtlMs", 60_000],
    ["config cleanupMs above the range is clamped", { cleanupMs: 1e12 }, {}, "jobTtlMs", 10_800_000],
    ["a string cleanupMs is absent", { cleanupMs: "120000" }, { PI_BASH_JOB_TTL_MS: "90000" }, "jobTtlMs", 90_000],
  ])("%s", (_title, exec, env, key, expected) => {
    expect(withExec(exec, env)[key]).toBe(expected);
  });

  it("ignores config keys for the caps and the input-wait threshold", () => {
    const exec = { maxOutputChars: 5_000, pendingMaxOutputChars: 2_000, inputWaitIdleMs: 2_000 } as ExecConfig;
    expect(withExec(exec)).toMatchObject({ maxOutputChars: 200_000, pendingMaxOutputChars: 30_000, inputWaitIdleMs: 15_000 });
  });

  it.each([null, 5, "config", { tools: null }, { tools: { exec: "x" } }, { tools: { exec: [] } }])(
    "treats a malformed config %j as empty",
    (config) => {
      expect(resolveSettings({ env: {}, config: config as never })).toEqual(withEnv({}));
    },
  );
});

describe("engine option inputWaitIdleMs (SET-15)", () => {
  it.each<[number, Env, number]>([
    [2_500, { OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS: "5000" }, 2_500],
    [10, {}, 1_000],
    [1e9, {}, 600_000],
    [Number.NaN, { OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS: "5000" }, 5_000],
    [Number.POSITIVE_INFINITY, {}, 15_000],
  ])("option %d with env %j resolves to %d", (option, env, expected) => {
    expect(resolveSettings({ env, inputWaitIdleMs: option }).inputWaitIdleMs).toBe(expected);
  });
});

describe("default timeout (SET-16, SET-17, SET-18)", () => {
  it.each<[ExecConfig, number]>([
    [{}, 1_800],
    [{ timeoutSeconds: 60 }, 60],
    [{ timeoutSeconds: 0.5 }, 0.5],
    [{ timeoutSeconds: 0 }, 1_800],
    [{ timeoutSeconds: -3 }, 1_800],
    [{ timeoutSeconds: Number.NaN }, 1_800],
    [{ timeoutSeconds: Number.POSITIVE_INFINITY }, 1_800],
    [{ timeoutSeconds: "60" }, 1_800],
    [{ timeoutSec: 90 }, 90],
    [{ timeoutSec: 0 }, 1_800],
    [{ timeoutSec: -1 }, 1_800],
    [{ timeoutSeconds: 60, timeoutSec: 90 }, 60],
    [{ timeoutSeconds: 0, timeoutSec: 90 }, 1_800],
    [{ timeoutSeconds: -1, timeoutSec: 90 }, 1_800],
    [{ timeoutSeconds: null, timeoutSec: 90 }, 90],
    [{ timeoutSeconds: "60", timeoutSec: 90 }, 90],
    [{ timeoutSeconds: Number.NaN, timeoutSec: 90 }, 90],
  ])("config %j resolves the default timeout to %d seconds", (exec, expected) => {
    expect(withExec(exec).defaultTimeoutSeconds).toBe(expected);
  });
});

describe("notification flags (SET-19…SET-22)", () => {
  it.each<[unknown, boolean]>([[undefined, true], [true, true], [false, false], [null, true], [0, true], ["false", true]])(
    "notifyOnExit %j resolves to %s",
    (value, expected) => {
      expect(withExec({ notifyOnExit: value }).notifyOnExit).toBe(expected);
    },
  );

  it.each<[unknown, boolean]>([[undefined, false], [true, true], [false, false], [1, false], ["true", false], [null, false]])(
    "notifyOnExitEmptySuccess %j resolves to %s",
    (value, expected) => {
      expect(withExec({ notifyOnExitEmptySuccess: value }).notifyOnExitEmptySuccess).toBe(expected);
    },
  );
});

describe("pathPrepend (SET-23)", () => {
  it.each<[unknown, string[]]>([
    [undefined, []],
    [["/opt/a", "/opt/b"], ["/opt/a", "/opt/b"]],
    [["", "/opt/a", 5, null, "/opt/b", ""], ["/opt/a", "/opt/b"]],
    ["/opt/a", []],
    [{ 0: "/opt/a" }, []],
  ])("pathPrepend %j resolves to %j", (value, expected) => {
    expect(withExec({ pathPrepend: value }).pathPrepend).toEqual(expected);
  });
});

describe("resolution happens once (SET-03)", () => {
  it("ignores later changes to the env and config objects", () => {
    const env: Env = { OPENCLAW_BASH_YIELD_MS: "2000" };
    const pathPrepend = ["/opt/a"];
    const exec: ExecConfig = { cleanupMs: 120_000, notifyOnExit: false, pathPrepend };
    const settings = resolveSettings({ env, config: { tools: { exec } } });
    const snapshot = structuredClone(settings);
    env.OPENCLAW_BASH_YIELD_MS = "3000";
    exec.cleanupMs = 240_000;
    exec.notifyOnExit = true;
    pathPrepend.push("/opt/b");
    expect(settings).toEqual(snapshot);
  });

  it("resolves two engines' settings independently", () => {
    const first = withEnv({ OPENCLAW_BASH_YIELD_MS: "2000" });
    const second = withExec({ backgroundMs: 3_000, notifyOnExit: false });
    expect([first.yieldMs, first.notifyOnExit]).toEqual([2_000, true]);
    expect([second.yieldMs, second.notifyOnExit]).toEqual([3_000, false]);
  });
});

describe("resolved numbers stay in range", () => {
  const envNames = Object.values(SETTINGS_TABLE).flatMap((r) => [r.envVar, r.legacyEnvAlias]).filter((n) => n !== null);
  const envValue = fc.oneof(fc.string(), fc.integer().map(String), fc.bigInt().map(String), fc.constant(""));
  const configValue = fc.oneof(fc.double(), fc.integer(), fc.anything(), fc.constant(undefined));

  it("keeps every numeric setting within its clamp for arbitrary env strings and config values", () => {
    const arbitraryEnv = fc.dictionary(fc.constantFrom(...envNames), envValue);
    const arbitraryExec = fc.record(
      { backgroundMs: configValue, cleanupMs: configValue, timeoutSeconds: configValue, timeoutSec: configValue },
      { requiredKeys: [] },
    );
    const option = fc.oneof(fc.double(), fc.constant(undefined));
    fc.assert(
      fc.property(arbitraryEnv, arbitraryExec, option, (env, exec, inputWaitIdleMs) => {
        const settings = resolveSettings({ env, config: { tools: { exec } }, ...(inputWaitIdleMs === undefined ? {} : { inputWaitIdleMs }) });
        for (const key of ["yieldMs", "maxOutputChars", "pendingMaxOutputChars", "jobTtlMs", "inputWaitIdleMs"] as const) {
          const { min, max } = SETTINGS_TABLE[key];
          expect(settings[key]).toBeGreaterThanOrEqual(min);
          expect(settings[key]).toBeLessThanOrEqual(max);
        }
        expect(settings.pendingMaxOutputChars).toBeLessThanOrEqual(settings.maxOutputChars);
        expect(Number.isFinite(settings.defaultTimeoutSeconds) && settings.defaultTimeoutSeconds > 0).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("settings table and limits", () => {
  it("exposes the limits as named constants with the same values", () => {
    expect(TAIL_CHARS).toBe(LIMITS.TAIL_CHARS);
    expect(POLL_BACKOFF_MS).toEqual([5_000, 10_000, 30_000, 60_000]);
    expect(LIMITS).toMatchObject({ YIELD_MIN_MS: 10, YIELD_MAX_MS: 120_000, DEFAULT_TIMEOUT_SECONDS: 1_800 });
  });

  it("freezes the table, its rows and the limits", () => {
    expect(Object.isFrozen(SETTINGS_TABLE)).toBe(true);
    expect(Object.values(SETTINGS_TABLE).every((r) => Object.isFrozen(r) && Object.isFrozen(r.rules))).toBe(true);
    expect(Object.isFrozen(LIMITS) && Object.isFrozen(POLL_BACKOFF_MS)).toBe(true);
  });

  it("renders one Markdown row per setting with its default and clamp", () => {
    const markdown = describeSettingsTable();
    expect(markdown.split("\n")).toHaveLength(2 + Object.keys(SETTINGS_TABLE).length);
    expect(markdown).toContain("| Default yield window (ms) | `OPENCLAW_BASH_YIELD_MS` | `PI_BASH_YIELD_MS` | `backgroundMs` | `10000` | 10–120000 |");
  });
});
