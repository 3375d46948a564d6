// scenarios.html: every scenario of the run with its status and its Given/When/Then, always expanded, each under
// its own anchor (`scenarios.html#s-features-poll-feature-42`). cucumber.html opens a linked scenario inside a
// collapsed feature; the compliance matrix links here instead.
import { RULE_TAG } from "../catalog/feature-tags.js";
import { escapeHtml, escapeText } from "./html-text.js";
import { scenarioLocation, scenarioStatusLabel } from "./report-text.js";
import { scenarioAnchor, scenarioKey, type ScenarioStep } from "./scenario-steps.js";
import type { ScenarioResult } from "./scenario-results.js";
import { specLink } from "./spec-document.js";
import { BADGE_CSS, verdictBadge } from "./verdict-badge.js";

/** The link from another report in the same folder to a scenario. */
export const scenarioLink = (scenario: { uri: string; line?: number }): string => `scenarios.html#${scenarioAnchor(scenario)}`;

export const STEPS_CSS = `
ol.steps { list-style: none; margin: .35rem 0; padding: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
ol.steps li { padding: .1rem .4rem; border-left: 3px solid #d0d7de; overflow-wrap: anywhere; }
ol.steps.passed li, ol.steps li.passed { border-color: #4ac26b; } ol.steps li.failed { border-color: #cf222e; background: #ffebe9; }
ol.steps li.skipped, ol.steps li.undefined, ol.steps li.pending { border-color: #d4a72c; }
ol.steps b { color: #8250df; }
ol.steps pre { margin: .2rem 0; padding: .35rem; background: #f6f8fa; overflow-x: auto; white-space: pre; }
ol.steps pre.error { background: #fff; color: #a40e26; white-space: pre-wrap; }
ol.steps table { border-collapse: collapse; margin: .2rem 0; } ol.steps td { border: 1px solid #d0d7de; padding: 0 .3rem; }`;

/**
 * Given/When/Then as an ordered list; a failed step shows the first `errorLines` lines of its message. When every step has one status it is the
 * list's class, not each step's: documentation.html holds some 900 scenarios, and its size is bounded (issue 35).
 */
export function stepsHtml(steps: readonly ScenarioStep[], { errorLines = 12 }: { errorLines?: number } = {}): string {
  if (steps.length === 0) return "<p><em>No steps recorded for this scenario.</em></p>";
  const statuses = new Set(steps.map((step) => step.status));
  const shared = statuses.size === 1 ? steps[0]?.status : undefined;
  const items = steps.map((step) => {
    const status = step.status && !shared ? ` class="${step.status.toLowerCase()}"` : "";
    const doc = step.docString === undefined ? "" : `<pre>${escapeText(step.docString)}</pre>`;
    const table = step.dataTable ? `<table>${step.dataTable.map((row) => `<tr>${row.map((cell) => `<td>${escapeText(cell)}</td>`).join("")}</tr>`).join("")}</table>` : "";
    const error = step.message && step.status === "FAILED" ? `<pre class="error">${escapeText(firstLines(step.message, errorLines))}</pre>` : "";
    return `<li${status}><b>${escapeText(step.keyword.trim())}</b> ${escapeText(step.text)}${doc}${table}${error}</li>`;
  });
  return `<ol class="steps${shared ? ` ${shared.toLowerCase()}` : ""}">${items.join("")}</ol>`;
}

/** Tags, with rule tags linked to their SPEC text. */
export function tagsHtml(tags: readonly string[]): string {
  return [...new Set(tags)].map((tag) => {
    const rule = RULE_TAG.exec(tag)?.[1];
    return rule ? `<a href="${specLink(rule)}">${escapeHtml(tag)}</a>` : escapeHtml(tag);
  }).join(" ");
}

const STYLE = `
body { font: 14px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 960px; padding: 0 1rem; color: #1f2328; }
h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; font-size: 1.1rem; overflow-wrap: anywhere; }
article { margin: 1rem 0; padding: .5rem .75rem; border: 1px solid #d0d7de; border-radius: 6px; }
article:target { outline: 3px solid #d4a72c; } article h3 { margin: 0 0 .25rem; font-size: 1rem; }
.meta { color: #57606a; margin: 0; overflow-wrap: anywhere; } code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; }
${BADGE_CSS}
${STEPS_CSS}`;

/** "231 scenarios ran (of 1191 in the kit; 960 not selected)": the count says what ran, not what the kit holds. */
export function ranSentence(scenarios: readonly ScenarioResult[]): string {
  const ran = scenarios.filter((scenario) => scenario.status !== "not run").length;
  const notSelected = scenarios.length - ran;
  return notSelected === 0 ? `${ran} scenarios ran` : `${ran} scenarios ran (of ${scenarios.length} in the kit; ${notSelected} not selected)`;
}

export function renderScenariosHtml(scenarios: readonly ScenarioResult[], steps: ReadonlyMap<string, ScenarioStep[]>): string {
  const byFile = new Map<string, ScenarioResult[]>();
  for (const scenario of scenarios) byFile.set(scenario.uri, [...(byFile.get(scenario.uri) ?? []), scenario]);
  const sections = [...byFile.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([uri, list]) => {
    const articles = list.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).map((scenario) => `<article id="${scenarioAnchor(scenario)}">
<h3>${verdictBadge(scenario.status, escapeHtml(scenarioStatusLabel(scenario)))} ${escapeHtml(scenario.name)}</h3>
<p class="meta"><code>${escapeHtml(scenarioLocation(scenario))}</code> ${tagsHtml(scenario.tags)}</p>
${stepsHtml(steps.get(scenarioKey(scenario)) ?? [])}
</article>`);
    return `<section><h2>${escapeHtml(uri)}</h2>\n${articles.join("\n")}\n</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scenarios</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Scenarios</h1>
<p>${ranSentence(scenarios)}, each with its status and steps. Rule tags link to their text in <a href="spec.html">spec.html</a>; `
  + `verdicts per rule are in <a href="compliance.html">compliance.html</a>, the sentences of the documentation in <a href="documentation.html">documentation.html</a>.</p>
${sections.join("\n")}
</body>
</html>
`;
}

function firstLines(text: string, count: number): string {
  const lines = text.split("\n");
  return lines.length <= count ? text : `${lines.slice(0, count).join("\n")}\n…`;
}
