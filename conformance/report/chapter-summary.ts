// The table the CLI prints at the end of a run: rule verdicts per SPEC chapter, in plain aligned text.
import { RULE_VERDICTS, type ComplianceMatrix } from "./compliance-matrix.js";

const HEADERS = ["Chapter", "Rules", ...RULE_VERDICTS];

export function renderChapterSummary(matrix: Pick<ComplianceMatrix, "chapters" | "rows">): string {
  const rows = matrix.chapters.map((chapter) => {
    const rules = matrix.rows.filter((row) => row.chapter === chapter);
    return [chapter.replace(/`/g, ""), String(rules.length), ...RULE_VERDICTS.map((verdict) => String(rules.filter((row) => row.verdict === verdict).length))];
  });
  rows.push(["All rules", String(matrix.rows.length), ...RULE_VERDICTS.map((verdict) => String(matrix.rows.filter((row) => row.verdict === verdict).length))]);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]): string => cells.map((text, column) => (column === 0 ? text.padEnd(widths[0] ?? 0) : text.padStart(widths[column] ?? 0))).join("  ").trimEnd();
  return [line(HEADERS), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}
