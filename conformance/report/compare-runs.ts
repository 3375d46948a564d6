// Several runs of the kit side by side (Bowtie-style): one row per rule with each implementation's verdict,
// per-chapter totals per implementation, and which rules the implementations disagree on.
import { RULE_VERDICTS, type ComplianceMatrix, type MatrixRow, type RuleVerdict } from "./compliance-matrix.js";
import { headlineSentence } from "./report-text.js";

/** One run to compare: its matrix and where its reports are, relative to the comparison's output directory. */
export interface RunToCompare {
  matrix: ComplianceMatrix;
  /** The run's report directory as a relative link from the output directory (no trailing slash). */
  href: string;
  /** Used when the matrix records no adapter name. */
  fallbackName: string;
  /** The column's title given on the command line (`compare --name`): used instead of the adapter's name. */
  name?: string;
}

export interface ComparedRun {
  /** The adapter's name, made unique among the compared runs. */
  name: string;
  href: string;
  headline: string;
}

export type RuleCounts = Record<RuleVerdict, number> & { rules: number };

export interface ComparisonRow {
  chapter: string;
  id: string;
  profile: MatrixRow["profile"];
  summary: string;
  /** One per run, in run order; undefined when that run's catalog has no such rule. */
  verdicts: Array<RuleVerdict | undefined>;
  /** The runs that selected the rule reached different verdicts. */
  disagree: boolean;
}

export interface ChapterTotals {
  chapter: string;
  /** One per run. */
  counts: RuleCounts[];
}

export interface Comparison {
  runs: ComparedRun[];
  rows: ComparisonRow[];
  /** Chapters in catalog order, then a last entry "All rules". */
  totals: ChapterTotals[];
  disagreements: number;
}

export const ALL_RULES = "All rules";

/** Verdicts of a rule that the run did not select, or whose edition does not state it: never a disagreement. */
const UNSELECTED: ReadonlyArray<RuleVerdict | undefined> = ["not run", "no scenario", "not in this edition", undefined];

export function compareRuns(runs: readonly RunToCompare[]): Comparison {
  const byId = runs.map((run) => new Map(run.matrix.rows.map((row) => [row.id, row])));
  const catalog = new Map<string, MatrixRow>();
  for (const run of runs) for (const row of run.matrix.rows) if (!catalog.has(row.id)) catalog.set(row.id, row);
  const rows = [...catalog.values()].map((rule): ComparisonRow => {
    const verdicts = byId.map((rowsOfRun) => rowsOfRun.get(rule.id)?.verdict);
    const selected = new Set(verdicts.filter((verdict) => !UNSELECTED.includes(verdict)));
    return { chapter: rule.chapter, id: rule.id, profile: rule.profile, summary: rule.summary, verdicts, disagree: selected.size > 1 };
  });
  const chapters = [...new Set(rows.map((row) => row.chapter))];
  const totals = [...chapters, ALL_RULES].map((chapter): ChapterTotals => ({
    chapter,
    counts: runs.map((_, index) => countVerdicts(rows.filter((row) => chapter === ALL_RULES || row.chapter === chapter), index)),
  }));
  return { runs: nameRuns(runs), rows, totals, disagreements: rows.filter((row) => row.disagree).length };
}

function countVerdicts(rows: readonly ComparisonRow[], runIndex: number): RuleCounts {
  const counts = { rules: 0, ...Object.fromEntries(RULE_VERDICTS.map((verdict) => [verdict, 0])) } as RuleCounts;
  for (const row of rows) {
    const verdict = row.verdicts[runIndex];
    if (verdict === undefined) continue;
    counts.rules += 1;
    counts[verdict] += 1;
  }
  return counts;
}

/** Given names, else adapter names; a name shared by several runs gets the run's directory appended. */
function nameRuns(runs: readonly RunToCompare[]): ComparedRun[] {
  const names = runs.map((run) => run.name ?? run.matrix.run?.adapterName ?? run.fallbackName);
  return runs.map((run, index) => {
    const name = names[index] ?? run.fallbackName;
    const shared = names.filter((other) => other === name).length > 1;
    return { name: shared ? `${name} (${run.href})` : name, href: run.href, headline: headlineSentence(run.matrix) };
  });
}
