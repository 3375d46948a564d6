// compliance.html: the content of compliance.md as one standalone page (inline style and script, no external
// assets). Rule ids link to their text in spec.html and scenario names to scenarios.html, which sit in the same
// report directory; a small link under each rule id opens its scenarios in cucumber.html.
import { PROFILES } from "../catalog/spec-rules.js";
import { shownVerdicts, type ComplianceMatrix, type MatrixRow, type ScenarioLink } from "./compliance-matrix.js";
import {
  cucumberReportLink, headlineSentence, isInCucumberReport, levelSentence, nextLevelSentence, ruleVerdictLabel, scenarioLocation, scenarioStatusLabel,
} from "./report-text.js";
import { scenarioLink } from "./render-scenarios-html.js";
import { specLink } from "./spec-document.js";
import { BADGE_CSS, verdictBadge } from "./verdict-badge.js";
import { escapeHtml, inlineMarkdown } from "./html-text.js";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1f2328; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d0d7de; padding: .35rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; } td.n { text-align: right; } code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; }
td.id { white-space: nowrap; font-weight: 600; } a.cucumber { display: block; font-size: 11px; font-weight: 400; } ul { margin: 0; padding-left: 1rem; } li.also { color: #57606a; }
${BADGE_CSS}
.divergence { margin: .25em 0 0; font-size: .85em; }
@media (max-width: 640px) { table { display: block; overflow-x: auto; } }
.level { font-size: 1.25rem; } nav a { margin-right: .75rem; } #filter label { margin-right: .75rem; }`;

const SCRIPT = `
for (const box of document.querySelectorAll("#filter input")) {
  box.addEventListener("change", () => {
    for (const row of document.querySelectorAll("tr[data-verdict='" + box.value + "']")) row.hidden = !box.checked;
  });
}`;

export function renderHtml(matrix: ComplianceMatrix): string {
  const next = matrix.run?.partial ? undefined : nextLevelSentence(matrix);
  const headline = matrix.run?.partial
    ? `<strong>${escapeHtml(headlineSentence(matrix))}</strong> (narrowed by <code>--tags</code> or <code>--paths</code>: no level is assessed)`
    : `Level reached: <strong>${escapeHtml(levelSentence(matrix))}</strong> (SPEC §0.4)`;
  const body = [
    "<h1>Compliance matrix</h1>",
    `<p class="level">${headline}</p>`,
    next ? `<p>${escapeHtml(next)}</p>` : "",
    `<p>${runLine(matrix)}</p>`,
    countsTable(matrix),
    `<p id="filter">Show: ${shownVerdicts(matrix.counts.all).map((verdict) => `<label><input type="checkbox" value="${verdict}" checked> ${verdictBadge(verdict)}</label>`).join("")}</p>`,
    `<nav>${matrix.chapters.map((chapter, index) => `<a href="#chapter-${index + 1}">${inlineMarkdown(chapter)}</a>`).join("")}</nav>`,
    ...matrix.chapters.map((chapter, index) => chapterTable(matrix, chapter, index)),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Compliance matrix — ${escapeHtml(matrix.level)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.filter(Boolean).join("\n")}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function chapterTable(matrix: ComplianceMatrix, chapter: string, index: number): string {
  const rows = matrix.rows.filter((row) => row.chapter === chapter).map(ruleRow).join("\n");
  return `<h2 id="chapter-${index + 1}">${inlineMarkdown(chapter)}</h2>
<table>
<thead><tr><th>Rule</th><th>Profile</th><th>Summary</th><th>Verdict</th><th>Scenarios</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

function ruleRow(row: MatrixRow): string {
  const items = [
    ...row.scenarios.map((link) => `<li>${scenarioItem(link)}</li>`),
    ...row.alsoExercisedBy.map((link) => `<li class="also">also ${scenarioItem(link)}${link.profile ? ` <code>@${link.profile}</code>` : ""}</li>`),
  ];
  const ran = [...row.scenarios, ...row.alsoExercisedBy].some(isInCucumberReport);
  const cucumber = ran ? ` <a class="cucumber" href="${escapeHtml(cucumberReportLink(row.id))}" title="this rule's scenarios in cucumber.html">cucumber</a>` : "";
  return `<tr id="${row.id}" data-verdict="${row.verdict}"><td class="id"><a href="${specLink(row.id)}">${row.id}</a>${cucumber}</td><td>${row.profile}</td>`
    + `<td>${inlineMarkdown(row.summary)}</td><td>${verdictBadge(row.verdict, escapeHtml(ruleVerdictLabel(row)))}`
    + `${row.divergence ? `<p class="divergence">${escapeHtml(row.divergence)}</p>` : ""}</td>`
    + `<td>${items.length ? `<ul>${items.join("")}</ul>` : "—"}</td></tr>`;
}

/** The scenario's status and name, linked to it (expanded) in scenarios.html. */
function scenarioItem(link: ScenarioLink): string {
  return `${verdictBadge(link.status, escapeHtml(scenarioStatusLabel(link)))} <a href="${scenarioLink(link)}">${escapeHtml(link.name)}</a> `
    + `<code>${escapeHtml(scenarioLocation(link))}</code>`;
}

function countsTable(matrix: ComplianceMatrix): string {
  const verdicts = shownVerdicts(matrix.counts.all);
  const head = `<tr><th>Profile</th><th>Rules</th>${verdicts.map((verdict) => `<th>${verdictBadge(verdict, verdict)}</th>`).join("")}</tr>`;
  const rows = [...PROFILES, "all" as const].map((profile) => {
    const counts = matrix.counts[profile];
    const cells = verdicts.map((verdict) => `<td class="n">${counts[verdict]}</td>`).join("");
    return `<tr><th>${profile}</th><td class="n">${counts.rules}</td>${cells}</tr>`;
  });
  return `<table class="counts">\n<thead>${head}</thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
}

function runLine(matrix: ComplianceMatrix): string {
  const parts = [];
  if (matrix.run?.adapterName) parts.push(`Implementation <strong>${escapeHtml(matrix.run.adapterName)}</strong>`);
  if (matrix.run) parts.push(`Generated ${escapeHtml(matrix.run.generatedAt)}`);
  if (matrix.run) parts.push(matrix.run.tagExpression
    ? `tag expression <code>${escapeHtml(matrix.run.tagExpression)}</code>`
    : matrix.run.partial ? "feature files narrowed by <code>--paths</code>" : "all scenarios selected");
  if (matrix.run?.passedOnlyOnRetry) parts.push(`${matrix.run.passedOnlyOnRetry} scenarios passed only on retry`);
  parts.push(`from <code>messages.ndjson</code>`, `full report: <a href="cucumber.html">cucumber.html</a>`,
    `the documentation sentence by sentence: <a href="documentation.html">documentation.html</a>`,
    `verdicts as described in <code>conformance/INTERPRETING.md</code>`);
  return `${parts.join(" · ")}.`;
}

export { escapeHtml, inlineMarkdown } from "./html-text.js";
