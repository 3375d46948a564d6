// The editions of the documentation that level "Documented" can mean (`--edition`, SPEC §15 and Appendix A).
// The newest edition is the basis of every `doc` rule. An older edition names some settings differently; for it,
// the `legacy-doc` rules that state its names supersede the `doc` rules that state the newest names, and the kit
// speaks the edition's names to the implementation (conformance/INTERPRETING.md, "Editions").

export interface Edition {
  id: string;
  /** How reports name it: "Documented (edition <label>)". */
  label: string;
  /** `legacy-doc` rule → the `doc` rules it supersedes for this edition (an empty list: it only adds a rule). */
  supersedes: Readonly<Record<string, readonly string[]>>;
  /** Newest name → this edition's name, for exec arguments, environment variables and `tools.exec` config keys. */
  names: { args: Readonly<Record<string, string>>; env: Readonly<Record<string, string>>; config: Readonly<Record<string, string>> };
}

/** SPEC §15: `timeout` (EXEC-04, LC-11), `tools.exec.timeoutSec` (SET-18) and `PI_BASH_*` (SET-06) in every older edition. */
const OLDER_NAMES: Edition["names"] = {
  args: { timeoutSeconds: "timeout" },
  env: {
    OPENCLAW_BASH_YIELD_MS: "PI_BASH_YIELD_MS",
    OPENCLAW_BASH_MAX_OUTPUT_CHARS: "PI_BASH_MAX_OUTPUT_CHARS",
    OPENCLAW_BASH_JOB_TTL_MS: "PI_BASH_JOB_TTL_MS",
  },
  config: { timeoutSeconds: "timeoutSec" },
};

const OLDER_SUPERSEDES = {
  "EXEC-04": ["EXEC-29", "EXEC-30"],
  "LC-11": ["LC-10"],
  "SET-06": ["SET-09", "SET-10", "SET-12"],
  "SET-18": ["SET-16"],
} as const;

export const NEWEST_EDITION: Edition = { id: "newest", label: "newest", supersedes: {}, names: { args: {}, env: {}, config: {} } };

export const EDITIONS: readonly Edition[] = [
  NEWEST_EDITION,
  { id: "ja", label: "ja, older", supersedes: OLDER_SUPERSEDES, names: OLDER_NAMES },
  // "omit offset to grab the last N lines" (LOG-06) is in the Swedish and Tagalog pages only.
  { id: "sv", label: "sv, older", supersedes: { ...OLDER_SUPERSEDES, "LOG-06": [] }, names: OLDER_NAMES },
  { id: "tl", label: "tl, older", supersedes: { ...OLDER_SUPERSEDES, "LOG-06": [] }, names: OLDER_NAMES },
];

export function findEdition(id: string): Edition {
  const edition = EDITIONS.find((candidate) => candidate.id === id);
  if (!edition) throw new Error(`--edition must be one of ${EDITIONS.map((e) => e.id).join(", ")} (got "${id}").`);
  return edition;
}

/** The `doc` rules that an older edition's `legacy-doc` rules replace. */
export function supersededRules(edition: Edition): Set<string> {
  return new Set(Object.values(edition.supersedes).flat());
}

/** True when a rule counts for level Documented of this edition. */
export function isDocumentedIn(edition: Edition, rule: { id: string; profile: string }): boolean {
  if (rule.profile === "legacy-doc") return rule.id in edition.supersedes;
  return rule.profile === "doc" && !supersededRules(edition).has(rule.id);
}

/**
 * The scenarios of level Documented for this edition: the `doc` ones without a superseded rule, and the
 * `legacy-doc` ones of the edition's rules; scenarios tagged `@both-names` pit a newest name against its older
 * alias, which no single older edition names, so they stay out.
 */
export function documentedTagExpression(edition: Edition): string {
  const legacy = Object.keys(edition.supersedes);
  if (legacy.length === 0) return "@doc";
  const superseded = [...supersededRules(edition)].map((id) => `@${id}`);
  return `(@doc or (@legacy-doc and (${legacy.map((id) => `@${id}`).join(" or ")}))) and not @both-names and not (${superseded.join(" or ")})`;
}

/** Renames the keys of an object that the edition names differently; other keys are kept as they are. */
export function renameKeys<T>(record: Readonly<Record<string, T>>, names: Readonly<Record<string, string>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [names[key] ?? key, value]));
}
