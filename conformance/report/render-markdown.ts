// compliance.md: a summary header (level reached, counts per profile) and one table per SPEC chapter.
import { PROFILES } from "../catalog/spec-rules.js";
import { RULE_VERDICTS, type ComplianceMatrix, type MatrixRow, type ScenarioLink } from "./compliance-matrix.js";
import {
  VERDICT_LABELS, VERDICT_MARKS, cucumberReportLink, headlineSentence, isInCucumberReport, levelSentence, nextLevelSentence, scenarioLocation,
  scenarioStatusLabel,
} from "./report-text.js";

export function renderMarkdown(matrix: ComplianceMatrix): string {
  const headline = matrix.run?.partial
    ? `**${headlineSentence(matrix)}** (narrowed by \`--tags\` or \`--paths\`: no level is assessed)`
    : `**Level reached: ${levelSentence(matrix)}** (SPEC §0.4)`;
  const lines = ["# Compliance matrix", "", headline, ""];
  const next = matrix.run?.partial ? undefined : nextLevelSentence(matrix);
  if (next) lines.push(next, "");
  lines.push(runLine(matrix), "", ...countsTable(matrix), "");
  for (const chapter of matrix.chapters) {
    lines.push(`## ${cell(chapter)}`, "", "| Rule | Profile | Summary | Verdict | Scenarios |", "|---|---|---|---|---|");
    for (const row of matrix.rows.filter((candidate) => candidate.chapter === chapter)) lines.push(ruleRow(row));
    lines.push("");
  }
  return lines.join("\n");
}

/** One table row; exported so tests can assert rows without the rest of the document. */
export function ruleRow(row: MatrixRow): string {
  const linked = [...row.scenarios, ...row.alsoExercisedBy].some(isInCucumberReport);
  const id = linked ? `[${row.id}](${cucumberReportLink(row.id)})` : row.id;
  const scenarios = [
    ...row.scenarios.map(scenarioEntry),
    ...row.alsoExercisedBy.map((link) => `also ${scenarioEntry(link)}${link.profile ? ` @${link.profile}` : ""}`),
  ];
  const explained = row.divergence ? `: ${cell(row.divergence)}` : "";
  const verdict = `${VERDICT_MARKS[row.verdict]} ${VERDICT_LABELS[row.verdict]}${explained}`;
  return `| ${id} | ${row.profile} | ${cell(row.summary)} | ${verdict} | ${scenarios.join("<br>") || "—"} |`;
}

function scenarioEntry(link: ScenarioLink): string {
  const label = scenarioStatusLabel(link);
  const note = label === link.status ? "" : ` — ${label}`;
  return `${VERDICT_MARKS[link.status]} ${cell(link.name)} (\`${scenarioLocation(link)}\`)${cell(note)}`;
}

function runLine(matrix: ComplianceMatrix): string {
  const parts = [];
  if (matrix.run?.adapterName) parts.push(`Implementation **${cell(matrix.run.adapterName)}**`);
  if (matrix.run) parts.push(`Generated ${matrix.run.generatedAt}`);
  if (matrix.run) parts.push(matrix.run.tagExpression
    ? `tag expression \`${matrix.run.tagExpression}\``
    : matrix.run.partial ? "feature files narrowed by `--paths`" : "all scenarios selected");
  if (matrix.run?.passedOnlyOnRetry) parts.push(`${matrix.run.passedOnlyOnRetry} scenarios passed only on retry`);
  parts.push("from `messages.ndjson`", "verdicts as described in `conformance/INTERPRETING.md`");
  return `${parts.join(" · ")}.`;
}

function countsTable(matrix: ComplianceMatrix): string[] {
  const header = `| Profile | Rules | ${RULE_VERDICTS.map((verdict) => `${VERDICT_MARKS[verdict]} ${verdict}`).join(" | ")} |`;
  const align = `|---|--:|${RULE_VERDICTS.map(() => "--:").join("|")}|`;
  const rows = [...PROFILES, "all" as const].map((profile) => {
    const counts = matrix.counts[profile];
    const name = profile === "all" ? "**all**" : profile;
    return `| ${name} | ${counts.rules} | ${RULE_VERDICTS.map((verdict) => counts[verdict]).join(" | ")} |`;
  });
  return [header, align, ...rows];
}

/**
 * Makes text safe inside a table cell: `|` is escaped, line breaks become spaces, and `<` outside code spans
 * becomes `&lt;` so that placeholders such as `<id>` are not read as HTML.
 */
export function cell(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/&/g, "&amp;").replace(/</g, "&lt;")))
    .join("")
    .replace(/\|/g, "\\|");
}
