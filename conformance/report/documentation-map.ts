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

/** A sentence of an edition: mapped to statements, or not normative with the reason. */
export type SentenceEntry =
  | { text: string; statements: string[] }
  | { text: string; notNormative: string };

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
}

export interface DocumentationMap {
  /** Newest edition first. */
  editions: DocumentationEdition[];
  statements: Record<string, DocumentationStatement>;
}

export const isNormative = (entry: SentenceEntry): entry is { text: string; statements: string[] } => "statements" in entry;

/** The rules of a sentence, in statement order, each once. */
export function sentenceRules(map: Pick<DocumentationMap, "statements">, entry: SentenceEntry): string[] {
  if (!isNormative(entry)) return [];
  return [...new Set(entry.statements.flatMap((id) => map.statements[id]?.rules ?? []))];
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
 * a scenario did not run.
 */
export function sentenceVerdict(verdicts: readonly RuleVerdict[]): SentenceOutcome {
  const count = (...of: RuleVerdict[]): number => verdicts.filter((verdict) => of.includes(verdict)).length;
  const counts = { rules: verdicts.length, passed: count("passed"), notApplicable: count("not applicable"), notRun: count("not run", "no scenario") };
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
