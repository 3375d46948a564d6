// comparison.md: the same comparison as plain Markdown: totals per chapter, the rules the implementations
// disagree on, then every rule. Verdicts are words, so nothing depends on an emoji font.
import type { RuleVerdict } from "./compliance-matrix.js";
import type { Comparison, ComparisonRow, RuleCounts } from "./compare-runs.js";
import { ALL_RULES } from "./compare-runs.js";
import { cell } from "./render-markdown.js";
import { ruleInMatrixLink } from "./report-text.js";
import { specLink } from "./spec-document.js";

export function renderComparisonMarkdown(comparison: Comparison): string {
  const header = `| Rule | Profile | ${comparison.runs.map((run) => cell(run.name)).join(" | ")} |`;
  const align = `|---|---|${comparison.runs.map(() => "---").join("|")}|`;
  const lines = [
    "# Implementations compared", "",
    `${comparison.runs.length} runs, ${comparison.rows.length} rules; **${comparison.disagreements}** where the runs that selected the rule disagree.`, "",
    ...comparison.runs.map((run) => `- **${cell(run.name)}**: ${run.headline} · [compliance matrix](${run.href}/compliance.md) · [scenario report](${run.href}/cucumber.html)`),
    "", "## Totals per chapter", "",
    `| Chapter | ${comparison.runs.map((run) => cell(run.name)).join(" | ")} |`, `|---|${comparison.runs.map(() => "---").join("|")}|`,
    ...comparison.totals.map((totals) => `| ${totals.chapter === ALL_RULES ? `**${ALL_RULES}**` : cell(totals.chapter)} | ${totals.counts.map(countsText).join(" | ")} |`),
    "", "## Rules where the implementations disagree", "",
  ];
  const disagreeing = comparison.rows.filter((row) => row.disagree);
  lines.push(...(disagreeing.length > 0 ? [header, align, ...disagreeing.map((row) => ruleLine(comparison, row))] : ["None."]), "");
  for (const chapter of new Set(comparison.rows.map((row) => row.chapter))) {
    lines.push(`## ${cell(chapter)}`, "", header, align, ...comparison.rows.filter((row) => row.chapter === chapter).map((row) => ruleLine(comparison, row)), "");
  }
  return lines.join("\n");
}

function countsText(counts: RuleCounts): string {
  const others = (["failed", "skipped", "not applicable", "not run"] as const).filter((verdict) => counts[verdict] > 0)
    .map((verdict) => `${counts[verdict]} ${verdict}`);
  return `${counts.passed}/${counts.rules} passed${others.length ? ` (${others.join(", ")})` : ""}`;
}

function ruleLine(comparison: Comparison, row: ComparisonRow): string {
  const cells = row.verdicts.map((verdict, index) => verdictCell(verdict, `${comparison.runs[index]?.href ?? "."}/${ruleInMatrixLink(row.id)}`));
  // The rule's SPEC text, in the first run's spec.html.
  const id = `[${row.id}](${comparison.runs[0]?.href ?? "."}/${specLink(row.id)})`;
  return `| ${row.disagree ? `**${id}**` : id} | ${row.profile} | ${cells.join(" | ")} |`;
}

function verdictCell(verdict: RuleVerdict | undefined, link: string): string {
  if (verdict === undefined) return "—";
  if (verdict === "not run" || verdict === "no scenario") return verdict;
  const text = verdict === "failed" ? "**failed**" : verdict;
  return `[${text}](${link})`;
}
