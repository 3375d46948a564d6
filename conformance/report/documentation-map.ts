// The map from the sentences of each documentation edition to the SPEC rules that encode them
// (conformance/catalog/documentation-map.json), and the verdict of a sentence from the verdicts of its rules.
import type { RuleVerdict } from "./compliance-matrix.js";

/** A statement of SPEC Appendix A: N01… for the newest edition, L01… for what only older editions say. */
export interface DocumentationStatement {
  /** The statement in English. */
  text: string;
  rules: string[];
  /** SPEC sections the statement points at besides its rules, e.g. "§14 (cron)". */
  sections?: string[];
}

/**
 * A sentence of an edition: mapped to statements, or not normative with the reason. `also` names a rule that the
 * sentence states though none of its statements lists it, with the reason (e.g. the newest edition's "explicitly or
 * by the `yieldMs` timer" says that a timeout never backgrounds, EXEC-38).
 */
export type SentenceEntry =
  | { text: string; statements: string[]; also?: { rules: string[]; why: string } }
  | { text: string; notNormative: string };

/**
 * Rules that an older edition's sentences link through a statement, but that the edition does not state: a detail
 * only a newer edition adds (the `poll` timeout's 30000 ms clamp under "poll: fetch new output"), or a meaning the
 * edition contradicts (EXEC-38). `lacks`: words of the newest edition that this edition's page does not contain.
 */
export interface NotStated {
  rules: string[];
  why: string;
  lacks?: string[];
}

export interface DocumentationEdition {
  /** Short id, also the anchor of the edition in documentation.html. */
  id: string;
  /** BCP 47 language tag of the page. */
  language: string;
  /** "Chinese", … */
  name: string;
  /** What sets the edition apart (newest; older, with `timeout` and the `PI_BASH_*` variables; …). */
  description: string;
  /** The page, relative to the kit's docs folder. */
  file: string;
  sentences: SentenceEntry[];
  /** What the edition's sentences link but the edition does not state (SPEC §15); older editions only. */
  notStated?: NotStated[];
}

export interface DocumentationMap {
  /** Newest edition first. */
  editions: DocumentationEdition[];
  statements: Record<string, DocumentationStatement>;
}

export const isNormative = (entry: SentenceEntry): entry is { text: string; statements: string[] } => "statements" in entry;

/**
 * The rules of a sentence, in statement order, each once; then its `also` rules. Given the sentence's edition, the
 * rules that the edition does not state are left out.
 */
export function sentenceRules(
  map: Pick<DocumentationMap, "statements">, entry: SentenceEntry, edition?: Pick<DocumentationEdition, "notStated">,
): string[] {
  if (!isNormative(entry)) return [];
  const unstated = new Set(edition?.notStated?.flatMap((group) => group.rules) ?? []);
  const linked = [...entry.statements.flatMap((id) => map.statements[id]?.rules ?? []), ...(entry.also?.rules ?? [])];
  return [...new Set(linked)].filter((id) => !unstated.has(id));
}

/** The rules that an edition states: those its sentences link, less its `notStated` ones. */
export function editionRules(map: DocumentationMap, editionId: string): Set<string> {
  const edition = map.editions.find((candidate) => candidate.id === editionId);
  if (!edition) throw new Error(`The documentation map has no edition "${editionId}" (it has ${map.editions.map((e) => e.id).join(", ")}).`);
  return new Set(edition.sentences.flatMap((entry) => sentenceRules(map, entry, edition)));
}

/** Where a rule is stated: an edition and one of its sentences that link the rule. */
export interface RuleSource {
  edition: string;
  sentence: string;
}

/** Each rule that some edition states → the editions that state it, newest first, with the first sentence of each. */
export function ruleSources(map: DocumentationMap): Map<string, RuleSource[]> {
  const sources = new Map<string, RuleSource[]>();
  for (const edition of map.editions) {
    for (const entry of edition.sentences) {
      for (const id of sentenceRules(map, entry, edition)) {
        const known = sources.get(id) ?? [];
        if (!known.some((source) => source.edition === edition.id)) sources.set(id, [...known, { edition: edition.id, sentence: entry.text }]);
      }
    }
  }
  return sources;
}

export type SentenceVerdict = "passed" | "failed" | "skipped" | "not applicable" | "not run";

export interface SentenceOutcome {
  verdict: SentenceVerdict;
  rules: number;
  passed: number;
  notApplicable: number;
  /** Rules not selected by the run, or without a scenario. */
  notRun: number;
}

/**
 * failed if any rule failed (or diverges); otherwise, among the rules that ran: passed if every applicable one
 * passed, skipped if one was skipped, not applicable if none was applicable; not run if none ran. A rule without
 * a scenario did not run, and so did a rule that the run's edition does not state.
 */
export function sentenceVerdict(verdicts: readonly RuleVerdict[]): SentenceOutcome {
  const count = (...of: RuleVerdict[]): number => verdicts.filter((verdict) => of.includes(verdict)).length;
  const counts = { rules: verdicts.length, passed: count("passed"), notApplicable: count("not applicable"), notRun: count("not run", "no scenario", "not in this edition") };
  const ran = verdicts.length - counts.notRun;
  const verdict: SentenceVerdict = count("failed", "diverges") > 0 ? "failed"
    : ran === 0 ? "not run"
      : ran === counts.notApplicable ? "not applicable"
        : counts.passed === ran - counts.notApplicable ? "passed" : "skipped";
  return { verdict, ...counts };
}

/** "all 3 rules passed", "passed: 2 of 5 rules (3 not run)", "some rules failed", … */
export function sentenceVerdictLabel({ verdict, rules, passed, notApplicable, notRun }: SentenceOutcome): string {
  switch (verdict) {
    case "passed": {
      if (passed === rules) return rules === 1 ? "its rule passed" : `all ${rules} rules passed`;
      const others = [notApplicable ? `${notApplicable} not applicable` : "", notRun ? `${notRun} not run` : ""].filter(Boolean);
      return `passed: ${passed} of ${rules} rules (${others.join(", ")})`;
    }
    case "failed": return "some rules failed";
    case "skipped": return "some rules skipped";
    case "not applicable": return "not applicable (capability missing)";
    case "not run": return "not run";
  }
}
