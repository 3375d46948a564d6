// The table the CLI prints at the end of a run: rule verdicts per SPEC chapter, in plain aligned text.
import { shownVerdicts, type ComplianceMatrix, type MatrixRow, type RuleVerdict } from "./compliance-matrix.js";

/** The console's words for a verdict: a rule none of whose scenarios ran was not selected (level, --tags, --paths). */
const HEADER = (verdict: RuleVerdict): string => (verdict === "not run" ? "not selected" : verdict);

export function renderChapterSummary(matrix: Pick<ComplianceMatrix, "chapters" | "rows">): string {
  const count = (rows: readonly MatrixRow[], verdict: RuleVerdict): number => rows.filter((row) => row.verdict === verdict).length;
  const verdicts = shownVerdicts({ "not in this edition": count(matrix.rows, "not in this edition") });
  const headers = ["Chapter", "Rules", ...verdicts.map(HEADER)];
  const rows = matrix.chapters.map((chapter) => {
    const rules = matrix.rows.filter((row) => row.chapter === chapter);
    return [chapter.replace(/`/g, ""), String(rules.length), ...verdicts.map((verdict) => String(count(rules, verdict)))];
  });
  rows.push(["All rules", String(matrix.rows.length), ...verdicts.map((verdict) => String(count(matrix.rows, verdict)))]);
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]): string => cells.map((text, column) => (column === 0 ? text.padEnd(widths[0] ?? 0) : text.padStart(widths[column] ?? 0))).join("  ").trimEnd();
  return [line(headers), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

/**
 * The failed rules, each with its ID and title and the scenarios that failed it (issue 37): the console names them,
 * not only compliance.md. Empty when no rule failed.
 */
export function renderFailedRules(matrix: Pick<ComplianceMatrix, "rows">): string {
  const failed = matrix.rows.filter((row) => row.verdict === "failed" || row.verdict === "diverges");
  if (failed.length === 0) return "";
  const lines = failed.flatMap((row) => [
    `${row.verdict === "failed" ? "Failed" : "Diverges"}: ${row.id} ${row.summary}`,
    ...row.scenarios.filter((scenario) => scenario.status === "failed")
      .map((scenario) => `  scenario ${scenario.uri}${scenario.line !== undefined ? `:${scenario.line}` : ""}: ${scenario.name}`),
  ]);
  return [`${failed.length} ${failed.length === 1 ? "rule" : "rules"} not met:`, ...lines].join("\n");
}
