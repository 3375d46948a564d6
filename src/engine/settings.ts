// The single home of every number of SPEC.md: the settings table (§1.1), the resolver (SET-01…SET-24)
// and the fixed limits other modules import instead of writing literals.

/** Raw `tools.exec` config. Values come from users, so every field is read defensively (SET-02). */
export interface ExecConfig {
  /** Default yield window in ms, `number` (SET-09). @default 10000 */
  backgroundMs?: unknown;
  /** Default command timeout in seconds, `number` (SET-16, SET-17). @default 1800 */
  timeoutSeconds?: unknown;
  /** @deprecated Alias of `timeoutSeconds`, read only when that is absent (SET-18). */
  timeoutSec?: unknown;
  /** Finished-session TTL in ms, `number` (SET-12, SET-13). @default 1800000 */
  cleanupMs?: unknown;
  /** Only `false` disables exit notifications (SET-19, SET-20). @default true */
  notifyOnExit?: unknown;
  /** Only `true` notifies silent successful runs (SET-21, SET-22). @default false */
  notifyOnExitEmptySuccess?: unknown;
  /** `string[]` placed before the inherited PATH (SET-23). @default [] */
  pathPrepend?: unknown;
}

export interface Settings {
  readonly yieldMs: number;
  readonly maxOutputChars: number;
  readonly pendingMaxOutputChars: number;
  readonly jobTtlMs: number;
  readonly inputWaitIdleMs: number;
  readonly defaultTimeoutSeconds: number;
  readonly notifyOnExit: boolean;
  readonly notifyOnExitEmptySuccess: boolean;
  readonly pathPrepend: readonly string[];
  readonly maxWatchesPerSession: number;
  readonly maxWatchesPerScope: number;
  readonly dedupeWindowMs: number;
}

export interface SettingRow {
  readonly setting: keyof Settings;
  readonly description: string;
  readonly envVar: string | null;
  readonly legacyEnvAlias: string | null;
  readonly configKey: keyof ExecConfig | null;
  readonly defaultValue: number | boolean | readonly string[];
  /** Inclusive clamp range; `null` for settings that are not clamped. */
  readonly min: number | null;
  readonly max: number | null;
  /** Accepted values in words, for documentation. */
  readonly accepted: string;
  readonly rules: readonly string[];
}

const row = <R extends SettingRow>(r: R): Readonly<R> => Object.freeze({ ...r, rules: Object.freeze([...r.rules]) });

/** One row per setting of SPEC §1.1, in table order. */
export const SETTINGS_TABLE = Object.freeze({
  yieldMs: row({ setting: "yieldMs", description: "Default yield window (ms)", envVar: "OPENCLAW_BASH_YIELD_MS",
    legacyEnvAlias: "PI_BASH_YIELD_MS", configKey: "backgroundMs", defaultValue: 10_000, min: 10, max: 120_000,
    accepted: "10–120000", rules: ["SET-09", "SET-06", "SET-07"] }),
  maxOutputChars: row({ setting: "maxOutputChars", description: "Aggregate output cap per session (chars)",
    envVar: "OPENCLAW_BASH_MAX_OUTPUT_CHARS", legacyEnvAlias: "PI_BASH_MAX_OUTPUT_CHARS", configKey: null,
    defaultValue: 200_000, min: 1_000, max: 200_000, accepted: "1000–200000", rules: ["SET-10", "SET-06", "SET-07"] }),
  pendingMaxOutputChars: row({ setting: "pendingMaxOutputChars", description: "Pending output cap per stream (chars)",
    envVar: "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", legacyEnvAlias: null, configKey: null, defaultValue: 30_000,
    min: 1_000, max: 200_000, accepted: "1000–200000, then ≤ aggregate cap", rules: ["SET-11", "SET-08"] }),
  jobTtlMs: row({ setting: "jobTtlMs", description: "Finished-session TTL (ms)", envVar: "OPENCLAW_BASH_JOB_TTL_MS",
    legacyEnvAlias: "PI_BASH_JOB_TTL_MS", configKey: "cleanupMs", defaultValue: 1_800_000, min: 60_000,
    max: 10_800_000, accepted: "60000–10800000 (1 min–3 h)", rules: ["SET-12", "SET-13", "SET-06", "SET-07"] }),
  inputWaitIdleMs: row({ setting: "inputWaitIdleMs", description: "Input-wait idle threshold (ms)",
    envVar: "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", legacyEnvAlias: null, configKey: null, defaultValue: 15_000,
    min: 1_000, max: 600_000, accepted: "1000–600000 (engine option inputWaitIdleMs first)",
    rules: ["SET-14", "SET-15", "SET-08"] }),
  defaultTimeoutSeconds: row({ setting: "defaultTimeoutSeconds", description: "Default command timeout (s)",
    envVar: null, legacyEnvAlias: null, configKey: "timeoutSeconds", defaultValue: 1_800, min: null, max: null,
    accepted: "finite and > 0, else 1800 (deprecated alias timeoutSec)", rules: ["SET-16", "SET-17", "SET-18"] }),
  notifyOnExit: row({ setting: "notifyOnExit", description: "Exit notifications", envVar: null, legacyEnvAlias: null,
    configKey: "notifyOnExit", defaultValue: true, min: null, max: null, accepted: "only false disables",
    rules: ["SET-19", "SET-20"] }),
  notifyOnExitEmptySuccess: row({ setting: "notifyOnExitEmptySuccess", description: "Notify silent successes",
    envVar: null, legacyEnvAlias: null, configKey: "notifyOnExitEmptySuccess", defaultValue: false, min: null,
    max: null, accepted: "only true enables", rules: ["SET-21", "SET-22"] }),
  pathPrepend: row({ setting: "pathPrepend", description: "PATH prefix entries", envVar: null, legacyEnvAlias: null,
    configKey: "pathPrepend", defaultValue: Object.freeze([] as string[]), min: null, max: null,
    accepted: "array of strings; non-empty entries kept", rules: ["SET-23"] }),
  maxWatchesPerSession: row({ setting: "maxWatchesPerSession", description: "Active watches per session (ours)",
    envVar: null, legacyEnvAlias: null, configKey: null, defaultValue: 8, min: 1, max: 64, accepted: "1–64",
    rules: ["issue 34"] }),
  maxWatchesPerScope: row({ setting: "maxWatchesPerScope", description: "Active watches per scope (ours)",
    envVar: null, legacyEnvAlias: null, configKey: null, defaultValue: 32, min: 1, max: 256, accepted: "1–256",
    rules: ["issue 34"] }),
  dedupeWindowMs: row({ setting: "dedupeWindowMs", description: "Retry dedupe window (ms, ours)", envVar: null,
    legacyEnvAlias: null, configKey: null, defaultValue: 0, min: 0, max: 600_000,
    accepted: "0–600000 (engine option dedupeWindowMs; 0 = off)", rules: ["issue 34"] }),
} as const);

/** Fixed numbers of SPEC.md that are not configurable; names carry their unit. */
export const LIMITS = Object.freeze({
  TAIL_CHARS: 2_000, // OUT-13
  OUTPUT_PIECE_CHARS: 8_192, // OUT-07
  KILL_GRACE_MS: 5_000, // KILL-08
  KILL_SETTLE_MS: 4_000, // KILL-11
  MAX_FINISHED_RECORDS: 50, // REG-07
  MAX_FINISHED_CHARS: 2_000_000, // REG-08
  POLL_MAX_WAIT_MS: 30_000, // POLL-07, POLL-08
  POLL_RETRY_WITH_OUTPUT_MS: 5_000, // POLL-06
  POLL_BACKOFF_MS: Object.freeze([5_000, 10_000, 30_000, 60_000] as const), // POLL-06, index = empty polls − 1
  YIELD_MIN_MS: SETTINGS_TABLE.yieldMs.min, // EXEC-22
  YIELD_MAX_MS: SETTINGS_TABLE.yieldMs.max, // EXEC-22
  DEFAULT_TIMEOUT_SECONDS: SETTINGS_TABLE.defaultTimeoutSeconds.defaultValue, // SET-16
  TIMER_MAX_MS: 2_147_483_647, // EXEC-31
  MS_PER_SECOND: 1_000, // EXEC-31: 0.5 s → 500 ms
  LOG_DEFAULT_LINES: 200, // LOG-03, LOG-04
  PTY_COLS: 120, // PTY-02
  PTY_ROWS: 30, // PTY-02
  NAME_TARGET_MAX: 48, // NAME-03
  LIST_NAME_MAX: 80, // LIST-06
  LIST_COMMAND_MAX: 120, // LIST-06
  LIST_STATUS_WIDTH: 9, // LIST-03
  SNIPPET_SOURCE_CHARS: 400, // NOTIFY-08
  SNIPPET_MAX_CHARS: 180, // NOTIFY-08
  ID8_CHARS: 8, // NOTIFY-07
  ID_BASE_TRIES: 12, // ID-03
  ID_MAX_COLLISION_SUFFIX: 12, // ID-03: <base>-2 … <base>-12
  ID_RANDOM_SUFFIX_CHARS: 3, // ID-03
  EXIT_CODE_NOT_EXECUTABLE: 126, // RES-12
  EXIT_CODE_NOT_FOUND: 127, // RES-11
  QUOTED_INPUT_MAX_CHARS: 100, // ours (issue 20): a text quotes an input whole up to this length …
  QUOTED_INPUT_HEAD_CHARS: 80, // … and a longer one by this many first characters, `…` and its length
  QUOTED_LIST_MAX_ITEMS: 10, // ours (issue 20): inputs (env keys) or warnings a text lists before "… (N more)"
  WATCH_FOLD_MS: 1_000, // ours (issue 34): matches of a watch with once: false within this window make one event
  WATCH_LINE_MAX_CHARS: 131_072, // ours (issue 34): a longer line is matched on its first this many characters
  WATCH_LINE_SHOWN_CHARS: 180, // ours (issue 34): a matched line in an event, whitespace folded, then cut with `…`
  WATCH_PATTERN_MAX_CHARS: 1_000, // ours (issue 34): the longest pattern a watch accepts
});

export const {
  TAIL_CHARS, OUTPUT_PIECE_CHARS, KILL_GRACE_MS, KILL_SETTLE_MS, MAX_FINISHED_RECORDS, MAX_FINISHED_CHARS,
  POLL_MAX_WAIT_MS, POLL_RETRY_WITH_OUTPUT_MS, POLL_BACKOFF_MS, YIELD_MIN_MS, YIELD_MAX_MS, DEFAULT_TIMEOUT_SECONDS,
  TIMER_MAX_MS, MS_PER_SECOND, LOG_DEFAULT_LINES, PTY_COLS, PTY_ROWS, NAME_TARGET_MAX, LIST_NAME_MAX,
  LIST_COMMAND_MAX, LIST_STATUS_WIDTH, SNIPPET_SOURCE_CHARS, SNIPPET_MAX_CHARS, ID8_CHARS, ID_BASE_TRIES,
  ID_MAX_COLLISION_SUFFIX, ID_RANDOM_SUFFIX_CHARS, EXIT_CODE_NOT_EXECUTABLE, EXIT_CODE_NOT_FOUND,
  QUOTED_INPUT_MAX_CHARS, QUOTED_INPUT_HEAD_CHARS, QUOTED_LIST_MAX_ITEMS, WATCH_FOLD_MS, WATCH_LINE_MAX_CHARS,
  WATCH_LINE_SHOWN_CHARS, WATCH_PATTERN_MAX_CHARS,
} = LIMITS;

/** Renders SETTINGS_TABLE as a Markdown table (for the README). */
export function describeSettingsTable(): string {
  const code = (value: string | null): string => (value === null ? "—" : `\`${value}\``);
  const lines = Object.values(SETTINGS_TABLE).map((r: SettingRow) =>
    `| ${r.description} | ${code(r.envVar)} | ${code(r.legacyEnvAlias)} | ${code(r.configKey)} | ` +
    `${code(JSON.stringify(r.defaultValue))} | ${r.accepted} | ${r.rules.join(", ")} |`);
  return ["| Setting | Environment variable | Legacy alias | Config key `tools.exec.*` | Default | Accepted | Rules |",
    "|---|---|---|---|---|---|---|", ...lines].join("\n");
}

type Env = Record<string, string | undefined>;
type ClampedRow = SettingRow & { readonly defaultValue: number; readonly min: number; readonly max: number };

export interface ResolveSettingsOptions {
  config?: { tools?: { exec?: ExecConfig } } | undefined;
  /** Settings source; @default process.env */
  env?: Env;
  /** Engine option that precedes OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS when finite (SET-15). */
  inputWaitIdleMs?: number;
  /** Engine option `dedupeWindowMs` (issue 34); absent or not finite: the default 0, no dedupe. */
  dedupeWindowMs?: number;
}

const STRICT_INTEGER = /^[+-]?[0-9]+$/;

/** SET-04: optional surrounding whitespace, optional sign, ASCII digits, safe integer; else undefined. */
export function parseStrictInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!STRICT_INTEGER.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

// SET-02: a numeric config value is present only when it is a finite number.
const readFiniteNumber = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

const clamp = (value: number, r: ClampedRow): number => Math.min(r.max, Math.max(r.min, value));

// SET-06, SET-07: the alias is read only when the primary is unset or ""; an invalid primary means the default.
function readEnvSetting(env: Env, r: ClampedRow): number | undefined {
  const primary = r.envVar === null ? undefined : env[r.envVar];
  if (primary !== undefined && primary !== "") return parseStrictInteger(primary);
  if (r.legacyEnvAlias === null) return undefined;
  return parseStrictInteger(env[r.legacyEnvAlias]);
}

// SET-01, SET-05, SET-09, SET-12, SET-13: config → env → alias → default, then clamp.
function resolveClamped(r: ClampedRow, env: Env, preferred: unknown): number {
  const value = readFiniteNumber(preferred) ?? readEnvSetting(env, r) ?? r.defaultValue;
  return clamp(value, r);
}

// SET-16…SET-18: a present timeoutSeconds wins even when ≤ 0; non-positive values mean the default.
function resolveDefaultTimeout(exec: Record<string, unknown>): number {
  const configured = readFiniteNumber(exec.timeoutSeconds) ?? readFiniteNumber(exec.timeoutSec);
  return configured !== undefined && configured > 0 ? configured : DEFAULT_TIMEOUT_SECONDS;
}

// SET-23: keep the non-empty string entries, in order; anything but an array means none.
const readPathPrepend = (value: unknown): readonly string[] =>
  Object.freeze(Array.isArray(value) ? value.filter((e): e is string => typeof e === "string" && e !== "") : []);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function readExecConfig(config: unknown): Record<string, unknown> {
  const tools = isRecord(config) ? config.tools : undefined;
  const exec = isRecord(tools) ? tools.exec : undefined;
  return isRecord(exec) ? exec : {};
}

/** Resolves the settings of one engine once (SET-03); the result is deep-frozen and shares nothing with its inputs. */
export function resolveSettings(options: ResolveSettingsOptions = {}): Settings {
  const env = options.env ?? process.env;
  const exec = readExecConfig(options.config);
  const table = SETTINGS_TABLE;
  const maxOutputChars = resolveClamped(table.maxOutputChars, env, undefined);
  return Object.freeze({
    yieldMs: resolveClamped(table.yieldMs, env, exec.backgroundMs),
    maxOutputChars,
    // SET-11: the pending cap never exceeds the aggregate cap.
    pendingMaxOutputChars: Math.min(resolveClamped(table.pendingMaxOutputChars, env, undefined), maxOutputChars),
    jobTtlMs: resolveClamped(table.jobTtlMs, env, exec.cleanupMs),
    inputWaitIdleMs: resolveClamped(table.inputWaitIdleMs, env, options.inputWaitIdleMs),
    defaultTimeoutSeconds: resolveDefaultTimeout(exec),
    notifyOnExit: exec.notifyOnExit !== false,
    notifyOnExitEmptySuccess: exec.notifyOnExitEmptySuccess === true,
    pathPrepend: readPathPrepend(exec.pathPrepend),
    maxWatchesPerSession: table.maxWatchesPerSession.defaultValue,
    maxWatchesPerScope: table.maxWatchesPerScope.defaultValue,
    dedupeWindowMs: resolveClamped(table.dedupeWindowMs, env, options.dedupeWindowMs),
  });
}
