// comparison.html: the implementations side by side, as one standalone page (inline style, script and SVG).
import { RULE_VERDICTS } from "./compliance-matrix.js";
import { ALL_RULES, type ChapterTotals, type Comparison, type ComparisonRow, type RuleCounts } from "./compare-runs.js";
import { escapeHtml, inlineMarkdown } from "./render-html.js";
import { ruleInMatrixLink } from "./report-text.js";
import { specLink } from "./spec-document.js";
import { BADGE_CSS, VERDICT_COLORS, verdictBadge } from "./verdict-badge.js";

const BAR_WIDTH = 160;
const BAR_HEIGHT = 12;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1f2328; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: .35rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; } th.run { min-width: 9rem; word-break: break-word; font-weight: 600; }
td.id { white-space: nowrap; font-weight: 600; } td.bar { white-space: nowrap; } .bar small { color: #57606a; margin-left: .3rem; }
tr.disagree td.id { box-shadow: inset 4px 0 0 #cf222e; } code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; }
#controls { margin: 1rem 0; padding: .5rem .75rem; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; }
.legend { margin-left: 1rem; } .legend .v { margin-right: .25rem; }
@media (max-width: 640px) {
  body { margin: 1rem auto; } .summary { display: none; } .legend { display: block; margin: .5rem 0 0; }
  td.bar svg { width: 5rem; } .bar small { display: block; margin: .15rem 0 0; } th.run { min-width: 6rem; }
}
${BADGE_CSS}`;

const SCRIPT = `
const only = document.getElementById("only-disagreements");
const apply = () => {
  for (const row of document.querySelectorAll("tr.rule")) row.hidden = only.checked && !row.classList.contains("disagree");
  for (const section of document.querySelectorAll("section.chapter")) {
    section.hidden = only.checked && !section.querySelector("tr.rule.disagree");
  }
};
only.addEventListener("change", apply);
if (location.hash === "#disagreements") { only.checked = true; }
apply();`;

export function renderComparisonHtml(comparison: Comparison): string {
  const chapters = comparison.totals.filter((totals) => totals.chapter !== ALL_RULES).map((totals) => totals.chapter);
  const body = [
    "<h1>Implementations compared</h1>",
    `<p>${comparison.runs.length} runs of the conformance kit, ${comparison.rows.length} rules; `
      + `<strong>${comparison.disagreements}</strong> ${comparison.disagreements === 1 ? "rule where they disagree" : "rules where they disagree"} `
      + "(among the runs that selected the rule).</p>",
    runList(comparison),
    `<h2>Totals per chapter</h2>\n<div class="scroll">${totalsTable(comparison)}</div>`,
    `<div id="controls"><label><input type="checkbox" id="only-disagreements"> Show only rules where the implementations disagree `
      + `(${comparison.disagreements})</label><span class="legend">${RULE_VERDICTS.map((verdict) => verdictBadge(verdict)).join("")}</span></div>`,
    ...chapters.map((chapter) => chapterSection(comparison, chapter)),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Implementations compared — ${comparison.disagreements} disagreements</title>
<style>${STYLE}</style>
</head>
<body>
${body.join("\n")}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function runList(comparison: Comparison): string {
  const items = comparison.runs.map((run) => `<li><strong>${escapeHtml(run.name)}</strong>: ${escapeHtml(run.headline)} · `
    + `<a href="${escapeHtml(run.href)}/compliance.html">compliance matrix</a> · <a href="${escapeHtml(run.href)}/cucumber.html">scenario report</a></li>`);
  return `<ul>${items.join("")}</ul>`;
}

function runHeaders(comparison: Comparison): string {
  return comparison.runs.map((run) => `<th class="run" title="${escapeHtml(run.name)}">${escapeHtml(run.name)}</th>`).join("");
}

function totalsTable(comparison: Comparison): string {
  const rows = comparison.totals.map((totals: ChapterTotals) => {
    const name = totals.chapter === ALL_RULES ? `<strong>${ALL_RULES}</strong>` : inlineMarkdown(totals.chapter);
    return `<tr><th>${name}</th>${totals.counts.map((counts) => `<td class="bar">${bar(counts)}</td>`).join("")}</tr>`;
  });
  return `<table class="totals">\n<thead><tr><th>Chapter</th>${runHeaders(comparison)}</tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
}

/** A stacked bar of the verdicts, widths proportional to the rule counts, with "passed / rules" beside it. */
function bar(counts: RuleCounts): string {
  let x = 0;
  const segments = RULE_VERDICTS.filter((verdict) => counts[verdict] > 0).map((verdict) => {
    const width = counts.rules === 0 ? 0 : (counts[verdict] / counts.rules) * BAR_WIDTH;
    const rect = `<rect x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="${BAR_HEIGHT}" fill="${VERDICT_COLORS[verdict]}"><title>${counts[verdict]} ${verdict}</title></rect>`;
    x += width;
    return rect;
  });
  const label = `${counts.passed}/${counts.rules} passed${counts.failed ? `, ${counts.failed} failed` : ""}`;
  return `<svg width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${label}">`
    + `<rect width="${BAR_WIDTH}" height="${BAR_HEIGHT}" fill="#f6f8fa"/>${segments.join("")}</svg><small>${label}</small>`;
}

function chapterSection(comparison: Comparison, chapter: string): string {
  const rows = comparison.rows.filter((row) => row.chapter === chapter).map((row) => ruleRow(comparison, row));
  return `<section class="chapter"><h2>${inlineMarkdown(chapter)}</h2>
<div class="scroll"><table>
<thead><tr><th>Rule</th><th>Profile</th><th class="summary">Summary</th>${runHeaders(comparison)}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table></div></section>`;
}

function ruleRow(comparison: Comparison, row: ComparisonRow): string {
  const cells = row.verdicts.map((verdict, index) => {
    if (verdict === undefined) return "<td>—</td>";
    const run = comparison.runs[index];
    const ran = verdict !== "not run" && verdict !== "no scenario";
    const badge = verdictBadge(verdict);
    return `<td>${ran && run ? `<a href="${escapeHtml(`${run.href}/${ruleInMatrixLink(row.id)}`)}">${badge}</a>` : badge}</td>`;
  });
  const spec = `${comparison.runs[0]?.href ?? "."}/${specLink(row.id)}`;
  return `<tr id="${row.id}" class="rule${row.disagree ? " disagree" : ""}"><td class="id"><a href="${escapeHtml(spec)}">${row.id}</a></td><td>${row.profile}</td>`
    + `<td class="summary">${inlineMarkdown(row.summary)}</td>${cells.join("")}</tr>`;
}
