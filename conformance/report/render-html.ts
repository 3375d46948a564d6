// compliance.html: the content of compliance.md as one standalone page (inline style and script, no external
// assets). Rule ids and scenario names link into cucumber.html, which sits in the same report directory.
import { PROFILES } from "../catalog/spec-rules.js";
import { RULE_VERDICTS, type ComplianceMatrix, type MatrixRow, type ScenarioLink } from "./compliance-matrix.js";
import {
  VERDICT_LABELS, cucumberReportLink, headlineSentence, isInCucumberReport, levelSentence, nextLevelSentence, scenarioLocation, scenarioStatusLabel,
} from "./report-text.js";
import { BADGE_CSS, verdictBadge } from "./verdict-badge.js";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1f2328; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d0d7de; padding: .35rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; } td.n { text-align: right; } code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; }
td.id { white-space: nowrap; font-weight: 600; } ul { margin: 0; padding-left: 1rem; } li.also { color: #57606a; }
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
    `<p id="filter">Show: ${RULE_VERDICTS.map((verdict) => `<label><input type="checkbox" value="${verdict}" checked> ${verdictBadge(verdict)}</label>`).join("")}</p>`,
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
  const linked = [...row.scenarios, ...row.alsoExercisedBy].some(isInCucumberReport);
  const id = linked ? `<a href="${escapeHtml(cucumberReportLink(row.id))}">${row.id}</a>` : row.id;
  const items = [
    ...row.scenarios.map((link) => `<li>${scenarioItem(row.id, link)}</li>`),
    ...row.alsoExercisedBy.map((link) => `<li class="also">also ${scenarioItem(row.id, link)}${link.profile ? ` <code>@${link.profile}</code>` : ""}</li>`),
  ];
  return `<tr id="${row.id}" data-verdict="${row.verdict}"><td class="id">${id}</td><td>${row.profile}</td>`
    + `<td>${inlineMarkdown(row.summary)}</td><td>${verdictBadge(row.verdict, escapeHtml(VERDICT_LABELS[row.verdict]))}`
    + `${row.divergence ? `<p class="divergence">${escapeHtml(row.divergence)}</p>` : ""}</td>`
    + `<td>${items.length ? `<ul>${items.join("")}</ul>` : "—"}</td></tr>`;
}

function scenarioItem(ruleId: string, link: ScenarioLink): string {
  const name = !isInCucumberReport(link)
    ? escapeHtml(link.name)
    : `<a href="${escapeHtml(cucumberReportLink(ruleId, link.astNodeId))}">${escapeHtml(link.name)}</a>`;
  return `${verdictBadge(link.status, escapeHtml(scenarioStatusLabel(link)))} ${name} <code>${escapeHtml(scenarioLocation(link))}</code>`;
}

function countsTable(matrix: ComplianceMatrix): string {
  const head = `<tr><th>Profile</th><th>Rules</th>${RULE_VERDICTS.map((verdict) => `<th>${verdictBadge(verdict, verdict)}</th>`).join("")}</tr>`;
  const rows = [...PROFILES, "all" as const].map((profile) => {
    const counts = matrix.counts[profile];
    const cells = RULE_VERDICTS.map((verdict) => `<td class="n">${counts[verdict]}</td>`).join("");
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
    `verdicts as described in <code>conformance/INTERPRETING.md</code>`);
  return `${parts.join(" · ")}.`;
}

/** Code spans become `<code>`, `*text*` becomes `<em>`; everything else is escaped. */
export function inlineMarkdown(text: string): string {
  return text.split(/(`[^`]*`)/).map((part, index) => (index % 2 === 1
    ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
    : escapeHtml(part).replace(/\*([^*\s][^*]*)\*/g, "<em>$1</em>"))).join("");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
