// The editions of the documentation that level "Documented" can mean (`--edition`, SPEC §15 and Appendix A).
// The newest edition is the basis of every `doc` rule. An older edition counts exactly the rules it states: the
// `doc` and `legacy-doc` rules that its sentences link in the documentation map (documentation.html), less those
// the map says it does not state; the kit speaks the edition's names to the implementation
// (conformance/INTERPRETING.md, "Editions").
import documentationMap from "./documentation-map.json" with { type: "json" };
import catalog from "./rules.json" with { type: "json" };
import { editionRules, type DocumentationMap } from "../report/documentation-map.js";

export interface Edition {
  id: string;
  /** How reports name it: "Documented (edition <label>)". */
  label: string;
  /** The edition's id in conformance/catalog/documentation-map.json. */
  mapId: string;
  /** Newest name → this edition's name, for exec arguments, environment variables and `tools.exec` config keys. */
  names: { args: Readonly<Record<string, string>>; env: Readonly<Record<string, string>>; config: Readonly<Record<string, string>> };
}

/** SPEC §15: `timeout` (LC-11), `tools.exec.timeoutSec` (SET-18) and `PI_BASH_*` (SET-06) in every older edition. */
const OLDER_NAMES: Edition["names"] = {
  args: { timeoutSeconds: "timeout" },
  env: {
    OPENCLAW_BASH_YIELD_MS: "PI_BASH_YIELD_MS",
    OPENCLAW_BASH_MAX_OUTPUT_CHARS: "PI_BASH_MAX_OUTPUT_CHARS",
    OPENCLAW_BASH_JOB_TTL_MS: "PI_BASH_JOB_TTL_MS",
  },
  config: { timeoutSeconds: "timeoutSec" },
};

export const NEWEST_EDITION: Edition = { id: "newest", label: "newest", mapId: "zh", names: { args: {}, env: {}, config: {} } };

export const EDITIONS: readonly Edition[] = [
  NEWEST_EDITION,
  { id: "ja", label: "ja, older", mapId: "ja", names: OLDER_NAMES },
  { id: "sv", label: "sv, older", mapId: "sv", names: OLDER_NAMES },
  { id: "tl", label: "tl, older", mapId: "tl", names: OLDER_NAMES },
];

export function findEdition(id: string): Edition {
  const edition = EDITIONS.find((candidate) => candidate.id === id);
  if (!edition) throw new Error(`--edition must be one of ${EDITIONS.map((e) => e.id).join(", ")} (got "${id}").`);
  return edition;
}

/** A catalog rule, or the part of one that decides whether an edition counts it. */
interface RuleRef {
  id: string;
  profile: string;
}

const DOCUMENTED_PROFILES: readonly string[] = ["doc", "legacy-doc"];
const statedCache = new Map<string, ReadonlySet<string>>();

/** The rules an edition states, from the documentation map (computed once per edition). */
export function statedRules(edition: Edition): ReadonlySet<string> {
  let stated = statedCache.get(edition.mapId);
  if (!stated) statedCache.set(edition.mapId, stated = editionRules(documentationMap as DocumentationMap, edition.mapId));
  return stated;
}

/**
 * True when a rule counts for level Documented of this edition: every `doc` rule for the newest edition (SPEC
 * §0.4); for an older one, the `doc` and `legacy-doc` rules it states.
 */
export function isDocumentedIn(edition: Edition, rule: RuleRef): boolean {
  if (edition === NEWEST_EDITION) return rule.profile === "doc";
  return DOCUMENTED_PROFILES.includes(rule.profile) && statedRules(edition).has(rule.id);
}

/** A `doc` or `legacy-doc` rule that an older edition does not state: "not in this edition" in the reports. */
export function isNotInEdition(edition: Edition, rule: RuleRef): boolean {
  return edition !== NEWEST_EDITION && DOCUMENTED_PROFILES.includes(rule.profile) && !statedRules(edition).has(rule.id);
}

/**
 * The scenarios of level Documented for this edition. For an older one: the `doc` and `legacy-doc` scenarios whose
 * rules the edition all states. Scenarios tagged `@both-names` pit a newest name against its older alias, which no
 * single older edition names, so they stay out.
 */
export function documentedTagExpression(edition: Edition, rules: readonly RuleRef[] = catalog as RuleRef[]): string {
  if (edition === NEWEST_EDITION) return "@doc";
  const unstated = rules.filter((rule) => isNotInEdition(edition, rule)).map((rule) => `@${rule.id}`);
  const documented = "(@doc or @legacy-doc) and not @both-names";
  return unstated.length === 0 ? documented : `${documented} and not (${unstated.join(" or ")})`;
}

/** Renames the keys of an object that the edition names differently; other keys are kept as they are. */
export function renameKeys<T>(record: Readonly<Record<string, T>>, names: Readonly<Record<string, string>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [names[key] ?? key, value]));
}
