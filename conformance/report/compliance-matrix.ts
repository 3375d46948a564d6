// The compliance matrix: one row per SPEC rule with its verdict, derived from the scenarios that verify it, plus
// counts per profile and the conformance level reached (SPEC §0.4). The derivation is documented for implementers
// in conformance/INTERPRETING.md ("Verdicts in the compliance matrix"); keep the two in step.
import { RULE_TAG } from "../catalog/feature-tags.js";
import { NEWEST_EDITION, isDocumentedIn, isNotInEdition, type Edition } from "../catalog/editions.js";
import { PROFILES, type Profile, type RuleEntry } from "../catalog/spec-rules.js";
import type { ScenarioResult, ScenarioStatus } from "./scenario-results.js";

export type RuleVerdict =
  | "passed" | "failed" | "diverges" | "skipped" | "not applicable" | "not run" | "no scenario" | "not in this edition";
export const RULE_VERDICTS: readonly RuleVerdict[] = [
  "passed", "failed", "diverges", "skipped", "not applicable", "not run", "no scenario", "not in this edition",
];

/** The verdicts a report's tables show: "not in this edition" only when a rule has it (`--edition` of an older edition). */
export function shownVerdicts(counts: Pick<VerdictCounts, "not in this edition">): RuleVerdict[] {
  return RULE_VERDICTS.filter((verdict) => verdict !== "not in this edition" || counts[verdict] > 0);
}

export type LevelName = "Documented" | "Documented + compatibility" | "Reference";
export type LevelReached = LevelName | "none";

/** SPEC §0.4: each level and the profiles whose rules must all pass. */
export const LEVELS: ReadonlyArray<{ name: LevelName; profiles: readonly Profile[] }> = [
  { name: "Documented", profiles: ["doc"] },
  { name: "Documented + compatibility", profiles: ["doc", "legacy-doc"] },
  { name: "Reference", profiles: ["doc", "legacy-doc", "upstream", "reference"] },
];

/** Verdicts that do not keep a level from being reached (see INTERPRETING.md for why). */
const NOT_BLOCKING: readonly RuleVerdict[] = ["passed", "not applicable", "no scenario"];

export interface ScenarioLink {
  name: string;
  uri: string;
  line?: number;
  astNodeId?: string;
  /** The scenario's profile tag, without `@`. */
  profile?: Profile;
  status: ScenarioStatus;
  cucumberStatus?: string;
  capabilities?: string[];
}

export interface MatrixRow {
  chapter: string;
  section: string;
  id: string;
  profile: Profile;
  summary: string;
  verdict: RuleVerdict;
  /**
   * Scenarios whose profile equals the rule's profile: they decide the verdict. A rule without such a scenario is
   * decided by its `reference` scenarios: the reference's decision stands in where it deliberately differs.
   */
  scenarios: ScenarioLink[];
  /** Scenarios of a more specific profile that also carry the rule's tag: shown, but not counted. */
  alsoExercisedBy: ScenarioLink[];
  /** The implementer's explanation of a known divergence (`--divergences`); set when the verdict is `diverges`. */
  divergence?: string;
}

export type VerdictCounts = Record<RuleVerdict, number> & { rules: number };

/** Where the matrix came from; set by the writer, shown in the header. */
export interface RunInfo {
  generatedAt: string;
  /** The cucumber tag expression of the run (level plus --tags); empty for all scenarios. */
  tagExpression?: string;
  /** Scenarios that failed at first and passed on a later attempt (`--retry`): passed, but only on retry. */
  passedOnlyOnRetry?: number;
  /** The implementation that ran: the adapter's `name`. */
  adapterName?: string;
  /** Set when `--tags` or `--paths` narrowed the run: a level is then not assessed. */
  partial?: true;
  /** The documentation edition that level Documented stands for (`--edition`; "newest" by default). */
  edition?: string;
}

export interface ComplianceMatrix {
  schemaVersion: 1;
  run?: RunInfo;
  rows: MatrixRow[];
  /** Chapters in SPEC order. */
  chapters: string[];
  counts: Record<Profile | "all", VerdictCounts>;
  level: LevelReached;
  /** The edition that level Documented stands for, when it is an older one (conformance/catalog/editions.ts). */
  edition?: string;
  /** Rules of the reached level's profiles whose verdict is `not applicable` (capability missing). */
  notApplicableInLevel: number;
  /** The lowest level not reached and the verdicts that block it. */
  nextLevel?: NextLevel;
}

export interface NextLevel {
  name: LevelName;
  /** Rules of the level's profiles by blocking verdict (failed, skipped, not run). */
  blockedBy: Partial<Record<RuleVerdict, number>>;
  /** Set when nothing blocks but none of the level's rules passed: a level is never reached vacuously. */
  noRulePassed?: true;
}

export interface MatrixInput {
  rules: readonly RuleEntry[];
  /** The scenarios of the message stream. */
  scenarios: readonly ScenarioResult[];
  /** Scenarios of the kit's feature files that are absent from the stream (not loaded): reported as not run. */
  unloadedScenarios?: readonly ScenarioResult[];
  /** Known divergences by rule id: a failed rule with a note becomes `diverges` (and still blocks its level). */
  divergences?: Readonly<Record<string, string>>;
  /**
   * The edition level Documented stands for. Under an older one, a doc or legacy-doc rule that the edition does not
   * state is "not in this edition", whatever its scenarios did, and level Documented does not count it.
   */
  edition?: Edition;
}

export function buildComplianceMatrix(
  { rules, scenarios, unloadedScenarios = [], divergences = {}, edition = NEWEST_EDITION }: MatrixInput,
): ComplianceMatrix {
  const byRule = new Map<string, ScenarioLink[]>();
  for (const scenario of [...scenarios, ...unloadedScenarios]) {
    const link = toLink(scenario);
    // A rule tag may be both inherited (Feature:, Rule:) and on the scenario: count the scenario once.
    const ruleIds = new Set(scenario.tags.map((tag) => RULE_TAG.exec(tag)?.[1]).filter((id): id is string => id !== undefined));
    for (const id of ruleIds) byRule.set(id, [...(byRule.get(id) ?? []), link]);
  }
  const rows = rules.map((rule): MatrixRow => {
    const links = (byRule.get(rule.id) ?? []).sort(byLocation);
    // A scenario without a profile tag breaks the kit's own gate; count it rather than hide a failure.
    const ownProfile = links.filter((link) => link.profile === rule.profile || link.profile === undefined);
    const scenariosOfRule = ownProfile.length > 0 ? ownProfile : links.filter((link) => link.profile === "reference");
    const alsoExercisedBy = links.filter((link) => !scenariosOfRule.includes(link));
    const { chapter, section, id, profile, summary } = rule;
    const verdict = isNotInEdition(edition, rule) ? "not in this edition" : deriveVerdict(scenariosOfRule);
    const row: MatrixRow = { chapter, section, id, profile, summary, verdict, scenarios: scenariosOfRule, alsoExercisedBy };
    const divergence = divergences[id];
    if (verdict === "failed" && divergence !== undefined) Object.assign(row, { verdict: "diverges", divergence });
    return row;
  });
  const counts = countVerdicts(rows);
  const { level, nextLevel } = deriveLevel(rows, edition);
  const reached = LEVELS.find((candidate) => candidate.name === level);
  const notApplicableInLevel = reached ? rows.filter((row) => inLevelOf(reached, row, edition) && row.verdict === "not applicable").length : 0;
  const matrix: ComplianceMatrix = {
    schemaVersion: 1, rows, chapters: [...new Set(rules.map((rule) => rule.chapter))], counts, level, notApplicableInLevel,
  };
  if (edition !== NEWEST_EDITION) matrix.edition = edition.label;
  if (nextLevel) matrix.nextLevel = nextLevel;
  return matrix;
}

/**
 * failed if any scenario failed; otherwise, among the scenarios that ran: passed if every applicable one passed,
 * skipped if any applicable one was skipped, not applicable if none was applicable; not run if none ran.
 */
export function deriveVerdict(scenarios: readonly Pick<ScenarioLink, "status">[]): RuleVerdict {
  if (scenarios.length === 0) return "no scenario";
  const statuses = scenarios.map((scenario) => scenario.status);
  if (statuses.includes("failed")) return "failed";
  const ran = statuses.filter((status) => status !== "not run");
  if (ran.length === 0) return "not run";
  const applicable = ran.filter((status) => status !== "not applicable");
  if (applicable.length === 0) return "not applicable";
  return applicable.every((status) => status === "passed") ? "passed" : "skipped";
}

/** Level Documented of an older edition: the doc and legacy-doc rules that the edition states. */
function inLevelOf(level: (typeof LEVELS)[number], row: Pick<MatrixRow, "id" | "profile">, edition: Edition): boolean {
  return level.name === "Documented" ? isDocumentedIn(edition, row) : level.profiles.includes(row.profile);
}

function deriveLevel(rows: readonly MatrixRow[], edition: Edition): Pick<ComplianceMatrix, "level" | "nextLevel"> {
  let level: LevelReached = "none";
  // An older edition is level Documented only: the levels above it include the newest edition's rules by definition.
  for (const candidate of edition === NEWEST_EDITION ? LEVELS : LEVELS.slice(0, 1)) {
    const inLevel = rows.filter((row) => inLevelOf(candidate, row, edition));
    const blockedBy: Partial<Record<RuleVerdict, number>> = {};
    for (const row of inLevel) {
      if (!NOT_BLOCKING.includes(row.verdict)) blockedBy[row.verdict] = (blockedBy[row.verdict] ?? 0) + 1;
    }
    const noRulePassed = !inLevel.some((row) => row.verdict === "passed");
    if (Object.keys(blockedBy).length > 0 || noRulePassed) {
      return { level, nextLevel: noRulePassed ? { name: candidate.name, blockedBy, noRulePassed } : { name: candidate.name, blockedBy } };
    }
    level = candidate.name;
  }
  return { level };
}

function countVerdicts(rows: readonly MatrixRow[]): Record<Profile | "all", VerdictCounts> {
  const empty = (): VerdictCounts => ({ rules: 0, ...Object.fromEntries(RULE_VERDICTS.map((verdict) => [verdict, 0])) }) as VerdictCounts;
  const counts = { all: empty(), ...Object.fromEntries(PROFILES.map((profile) => [profile, empty()])) } as Record<Profile | "all", VerdictCounts>;
  for (const row of rows) {
    for (const bucket of [counts[row.profile], counts.all]) {
      bucket.rules += 1;
      bucket[row.verdict] += 1;
    }
  }
  return counts;
}

function toLink(scenario: ScenarioResult): ScenarioLink {
  const { name, uri, line, astNodeId, status, cucumberStatus, capabilities } = scenario;
  const link: ScenarioLink = { name, uri, status };
  const profile = scenario.tags.map((tag) => tag.slice(1)).find((tag): tag is Profile => PROFILES.includes(tag as Profile));
  if (profile) link.profile = profile;
  if (line !== undefined) link.line = line;
  if (astNodeId !== undefined) link.astNodeId = astNodeId;
  if (cucumberStatus !== undefined) link.cucumberStatus = cucumberStatus;
  if (capabilities !== undefined) link.capabilities = capabilities;
  return link;
}

function byLocation(a: ScenarioLink, b: ScenarioLink): number {
  return a.uri.localeCompare(b.uri) || (a.line ?? 0) - (b.line ?? 0);
}
