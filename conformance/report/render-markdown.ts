// compliance.md: a summary header (level reached, counts per profile), then per SPEC chapter one short section per
// rule. It reads in a 100-column terminal: no wide tables, text wrapped at spaces outside code spans.
import { PROFILES } from "../catalog/spec-rules.js";
import { shownVerdicts, type ComplianceMatrix, type MatrixRow, type ScenarioLink } from "./compliance-matrix.js";
import { TERMINAL_COLUMNS, wrapMarkdown } from "./markdown-wrap.js";
import {
  VERDICT_MARKS, headlineSentence, levelSentence, nextLevelSentence, ruleVerdictLabel, scenarioLocation, scenarioStatusLabel,
} from "./report-text.js";
import { specLink } from "./spec-document.js";

export function renderMarkdown(matrix: ComplianceMatrix): string {
  const headline = matrix.run?.partial
    ? `**${headlineSentence(matrix)}** (narrowed by \`--tags\` or \`--paths\`: no level is assessed)`
    : `**Level reached: ${levelSentence(matrix)}** (SPEC §0.4)`;
  const lines = ["# Compliance matrix", "", ...wrapMarkdown(headline), ""];
  const next = matrix.run?.partial ? undefined : nextLevelSentence(matrix);
  if (next) lines.push(...wrapMarkdown(next), "");
  lines.push(...wrapMarkdown(runLine(matrix)), "", ...countsTable(matrix), "");
  lines.push(...wrapMarkdown("Each rule links to its text in `spec.html`; `compliance.html` links each scenario to its steps "
    + "in `scenarios.html`, and `documentation.html` shows the documentation sentence by sentence with these verdicts."), "");
  for (const chapter of matrix.chapters) {
    lines.push(...wrapMarkdown(`## ${chapter}`), "");
    for (const row of matrix.rows.filter((candidate) => candidate.chapter === chapter)) lines.push(...ruleSection(row), "");
  }
  return lines.join("\n");
}

/**
 * One rule: a heading with its id (linked to its SPEC text), profile and verdict, its summary, and its scenarios
 * as a list, all wrapped to a 100-column terminal. Exported so tests can assert rules without the rest.
 */
export function ruleSection(row: MatrixRow): string[] {
  const verdict = `${VERDICT_MARKS[row.verdict]} ${ruleVerdictLabel(row)}`;
  const lines = [`### [${row.id}](${specLink(row.id)}) · ${row.profile} · ${verdict}`, "", ...wrapMarkdown(escapeText(row.summary))];
  if (row.divergence) lines.push("", ...wrapMarkdown(`Divergence (explained): ${escapeText(row.divergence)}`));
  const scenarios = [
    ...row.scenarios.map(scenarioEntry),
    ...row.alsoExercisedBy.map((link) => `also ${scenarioEntry(link)}${link.profile ? ` @${link.profile}` : ""}`),
  ];
  lines.push("", ...(scenarios.length ? scenarios.flatMap((entry) => wrapMarkdown(entry, TERMINAL_COLUMNS, "- ", "  ")) : ["No scenario."]));
  return lines;
}

function scenarioEntry(link: ScenarioLink): string {
  const label = scenarioStatusLabel(link);
  const note = label === link.status ? "" : ` — ${label}`;
  return `${VERDICT_MARKS[link.status]} ${escapeText(link.name)} (\`${scenarioLocation(link)}\`)${escapeText(note)}`;
}

function runLine(matrix: ComplianceMatrix): string {
  const parts = [];
  if (matrix.run?.adapterName) parts.push(`Implementation **${escapeText(matrix.run.adapterName)}**`);
  if (matrix.run) parts.push(`Generated ${matrix.run.generatedAt}`);
  if (matrix.run) parts.push(matrix.run.tagExpression
    ? `tag expression \`${matrix.run.tagExpression}\``
    : matrix.run.partial ? "feature files narrowed by `--paths`" : "all scenarios selected");
  if (matrix.run?.passedOnlyOnRetry) parts.push(`${matrix.run.passedOnlyOnRetry} scenarios passed only on retry`);
  parts.push("from `messages.ndjson`", "verdicts as described in `conformance/INTERPRETING.md`");
  return `${parts.join(" · ")}.`;
}

/** Verdicts as words (the marks take columns and need an emoji font): the table fits 100 columns. */
function countsTable(matrix: ComplianceMatrix): string[] {
  const verdicts = shownVerdicts(matrix.counts.all);
  const header = `| Profile | Rules | ${verdicts.join(" | ")} |`;
  const align = `|---|--:|${verdicts.map(() => "--:").join("|")}|`;
  const rows = [...PROFILES, "all" as const].map((profile) => {
    const counts = matrix.counts[profile];
    const name = profile === "all" ? "**all**" : profile;
    return `| ${name} | ${counts.rules} | ${verdicts.map((verdict) => counts[verdict]).join(" | ")} |`;
  });
  return [header, align, ...rows];
}

/** Text outside tables: `<` outside code spans becomes `&lt;`, so that placeholders such as `<id>` are not read as HTML. */
function escapeText(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/&/g, "&amp;").replace(/</g, "&lt;")))
    .join("");
}

/**
 * Makes text safe inside a table cell: `|` is escaped, line breaks become spaces, and `<` outside code spans
 * becomes `&lt;` so that placeholders such as `<id>` are not read as HTML.
 */
export function cell(text: string): string {
  return escapeText(text).replace(/\|/g, "\\|");
}
