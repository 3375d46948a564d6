// documentation.html: living documentation. Every edition of the documentation page, newest first, sentence by
// sentence; each normative sentence carries the verdict of its rules and opens (a <details>, no script) to those
// rules, their SPEC text and the scenarios that decide them with their Given/When/Then.
import type { ComplianceMatrix, MatrixRow, RuleVerdict, ScenarioLink } from "./compliance-matrix.js";
import {
  isNormative, sentenceRules, sentenceVerdict, sentenceVerdictLabel, type DocumentationEdition, type DocumentationMap, type SentenceEntry,
  type SentenceVerdict,
} from "./documentation-map.js";
import { splitEdition, type EditionBlock } from "./edition-sentences.js";
import { escapeHtml, inlineMarkdown } from "./html-text.js";
import { STEPS_CSS, scenarioLink, stepsHtml } from "./render-scenarios-html.js";
import { VERDICT_LABELS, headlineSentence, notApplicableLabel, ruleVerdictLabel, scenarioLocation, scenarioStatusLabel } from "./report-text.js";
import { scenarioKey, type ScenarioStep } from "./scenario-steps.js";
import { specLink } from "./spec-document.js";
import { BADGE_CSS, verdictBadge } from "./verdict-badge.js";

export interface DocumentationInput {
  map: DocumentationMap;
  /** The text of each edition, by edition id. */
  editionTexts: Readonly<Record<string, string>>;
  matrix: ComplianceMatrix;
  /** Rule id → SPEC text (spec-document.ts readRuleTexts). */
  ruleTexts: ReadonlyMap<string, string>;
  /** Scenario key → steps (scenario-steps.ts). */
  steps: ReadonlyMap<string, ScenarioStep[]>;
}

const SENTENCE_VERDICTS: readonly SentenceVerdict[] = ["passed", "failed", "skipped", "not applicable", "not run"];

const STYLE = `
body { font: 16px/1.6 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 1rem; color: #1f2328; }
.s, blockquote, .why, .about { overflow-wrap: anywhere; }
header p { margin: .35rem 0; } nav.editions a { display: inline-block; margin: 0 .75rem .25rem 0; }
section.edition { margin-top: 2.5rem; border-top: 3px solid #d0d7de; } section.edition > h2 { margin: .75rem 0 .25rem; }
.about { color: #57606a; margin: 0 0 1rem; font-size: .95em; }
.doc-h { font-size: 1.15rem; font-weight: 700; margin: 1.5rem 0 .25rem; } .label { margin: .75rem 0 .25rem; font-weight: 600; }
ul.doc { list-style: none; padding-left: 0; margin: .25rem 0; } ul.doc > li { margin: .15rem 0; }
ul.doc > li > .nn::before { content: "• "; }
pre.doc { background: #f6f8fa; padding: .5rem; overflow-x: auto; margin: .25rem 0; }
blockquote { margin: .5rem 0; padding: 0 .75rem; border-left: 3px solid #d0d7de; color: #57606a; }
code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; overflow-wrap: anywhere; }
.nn { color: #57606a; }
details.s { margin: .1rem 0; } details.s > summary { cursor: pointer; list-style-position: outside; }
details.s > summary .v { margin-left: .4rem; vertical-align: .1em; }
details.s[open] > summary { background: #f6f8fa; border-radius: 4px; }
.why { margin: .35rem 0 .75rem; padding: .5rem .75rem; border: 1px solid #d0d7de; border-radius: 6px; font-size: 14px; line-height: 1.5; }
.why p { margin: .25rem 0; } .statement { font-style: italic; }
details.rule { margin: .4rem 0; } details.rule > summary { cursor: pointer; } details.rule > summary a { font-weight: 600; }
blockquote.spec { color: #1f2328; font-size: 13.5px; }
ul.scenarios { list-style: none; padding-left: .5rem; margin: .25rem 0; } ul.scenarios > li { margin: .2rem 0; }
ul.scenarios summary { cursor: pointer; } .loc { font-size: 12px; color: #57606a; }
.legend .v { margin-right: .35rem; } table.counts { border-collapse: collapse; margin: .5rem 0; font-size: 14px; }
table.counts th, table.counts td { border: 1px solid #d0d7de; padding: .15rem .5rem; text-align: right; white-space: nowrap; } table.counts th:first-child { text-align: left; }
@media (max-width: 640px) {
  body { font-size: 15px; padding: .75rem; } h1 { font-size: 1.5rem; } .why { padding: .4rem .5rem; } table.counts { font-size: 12px; }
  details.s { margin-left: .9rem; } ul.scenarios { padding-left: 0; } ol.steps { font-size: 12px; }
}
${BADGE_CSS}
${STEPS_CSS}`;

export function renderDocumentationHtml(input: DocumentationInput): string {
  const rows = new Map(input.matrix.rows.map((row) => [row.id, row]));
  const editions = input.map.editions.map((edition) => editionSection(input, rows, edition));
  const counts = input.map.editions.map((edition) => countSentences(input.map, rows, edition));
  const run = input.matrix.run;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The documentation, sentence by sentence — ${escapeHtml(headlineSentence(input.matrix))}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>The documentation, sentence by sentence</h1>
<p>${run?.adapterName ? `Implementation <strong>${escapeHtml(run.adapterName)}</strong> · ` : ""}<strong>${escapeHtml(headlineSentence(input.matrix))}</strong>`
  + `${run ? ` · generated ${escapeHtml(run.generatedAt)}` : ""}.</p>
<p>Each normative sentence of each edition shows the verdict of the SPEC rules that encode it; open it for the rules, their text `
  + `and the scenarios that decide them. Sentences in grey are not normative (headings, labels, navigation). `
  + `See also <a href="compliance.html">compliance.html</a>, <a href="spec.html">spec.html</a> and <a href="scenarios.html">scenarios.html</a>.</p>
<p class="legend">${SENTENCE_VERDICTS.map((verdict) => verdictBadge(verdict, escapeHtml(legend(verdict)))).join(" ")}</p>
${countsTable(input.map.editions, counts)}
<nav class="editions">${input.map.editions.map((edition, index) => `<a href="#${edition.id}">${escapeHtml(edition.name)}${index === 0 ? " (newest)" : ""}</a>`).join("")}</nav>
</header>
${editions.join("\n")}
</body>
</html>
`;
}

function legend(verdict: SentenceVerdict): string {
  return {
    passed: "all its rules passed", failed: "some failed", skipped: "some skipped", "not applicable": "not applicable", "not run": "not run",
  }[verdict];
}

type Counts = Record<SentenceVerdict, number> & { normative: number; notNormative: number };

function countSentences(map: DocumentationMap, rows: ReadonlyMap<string, MatrixRow>, edition: DocumentationEdition): Counts {
  const counts = { normative: 0, notNormative: 0, ...Object.fromEntries(SENTENCE_VERDICTS.map((verdict) => [verdict, 0])) } as Counts;
  for (const entry of edition.sentences) {
    if (!isNormative(entry)) {
      counts.notNormative += 1;
      continue;
    }
    counts.normative += 1;
    counts[outcomeOf(map, rows, entry).verdict] += 1;
  }
  return counts;
}

function countsTable(editions: readonly DocumentationEdition[], counts: readonly Counts[]): string {
  const head = `<tr><th>Edition</th><th>Normative sentences</th>${SENTENCE_VERDICTS.map((verdict) => `<th>${verdict}</th>`).join("")}</tr>`;
  const body = editions.map((edition, index) => {
    const count = counts[index]!;
    return `<tr><th><a href="#${edition.id}">${escapeHtml(edition.name)}</a></th><td>${count.normative}</td>${SENTENCE_VERDICTS.map((verdict) => `<td>${count[verdict]}</td>`).join("")}</tr>`;
  });
  return `<div style="overflow-x:auto"><table class="counts"><thead>${head}</thead><tbody>${body.join("")}</tbody></table></div>`;
}

function outcomeOf(map: DocumentationMap, rows: ReadonlyMap<string, MatrixRow>, entry: SentenceEntry) {
  return sentenceVerdict(sentenceRules(map, entry).map((id): RuleVerdict => rows.get(id)?.verdict ?? "no scenario"));
}

function editionSection(input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>, edition: DocumentationEdition): string {
  const text = input.editionTexts[edition.id];
  if (text === undefined) return `<section class="edition" id="${edition.id}"><h2>${escapeHtml(edition.name)}</h2><p>The page is missing from this kit.</p></section>`;
  const entries = new Map<string, SentenceEntry[]>();
  for (const entry of edition.sentences) entries.set(entry.text, [...(entries.get(entry.text) ?? []), entry]);
  const sentence = (text: string): string => sentenceHtml(input, rows, text, entries.get(text)?.shift());
  const html: string[] = [];
  let list: { kind: string; items: string[] } | undefined;
  const flush = (): void => {
    if (list) html.push(`<ul class="doc ${list.kind}">${list.items.map((item) => `<li>${item}</li>`).join("")}</ul>`);
    list = undefined;
  };
  for (const block of splitEdition(text)) {
    if (block.kind !== "item" && block.kind !== "row") flush();
    html.push(...blockHtml(block, sentence, (item) => {
      if (list?.kind !== block.kind) {
        flush();
        list = { kind: block.kind, items: [] };
      }
      list.items.push(item);
    }));
  }
  flush();
  return `<section class="edition" id="${edition.id}" lang="${escapeHtml(edition.language)}">
<h2 lang="en">${escapeHtml(edition.name)}</h2>
<p class="about" lang="en">${inlineMarkdown(edition.description)} <code>docs/${escapeHtml(edition.file)}</code></p>
${html.join("\n")}
</section>`;
}

function blockHtml(block: EditionBlock, sentence: (text: string) => string, addItem: (html: string) => void): string[] {
  const sentences = block.sentences.map(sentence).join("");
  switch (block.kind) {
    // A div, not <h3>: a heading may be normative, and a <details> is not allowed inside <h3>.
    case "heading": return [`<div class="doc-h" role="heading" aria-level="3">${sentences}</div>`];
    case "code": return [`<div class="code">${sentences}</div>`];
    case "quote": return [`<blockquote>${sentences}</blockquote>`];
    case "item":
    case "row":
      addItem(sentences);
      return [];
    case "paragraph": return [`<div class="${block.sentences.length === 1 && /[:：]$/.test(block.sentences[0] ?? "") ? "label" : "p"}">${sentences}</div>`];
  }
}

function sentenceText(text: string): string {
  return text.startsWith("{") ? `<pre class="doc"><code>${escapeHtml(text)}</code></pre>` : inlineMarkdown(text).replace(/ \| /g, " — ");
}

function sentenceHtml(input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>, text: string, entry: SentenceEntry | undefined): string {
  if (!entry) return `<div class="s unmapped">${sentenceText(text)} ${verdictBadge("failed", "not in the documentation map")}</div>`;
  if (!isNormative(entry)) return `<div class="s nn" title="not normative: ${escapeHtml(entry.notNormative)}">${sentenceText(text)}</div>`;
  const outcome = outcomeOf(input.map, rows, entry);
  const capabilities = sentenceRules(input.map, entry).flatMap((id) => {
    const row = rows.get(id);
    return row?.verdict === "not applicable" ? row.scenarios.flatMap((link) => link.capabilities ?? []) : [];
  });
  const label = outcome.verdict === "not applicable" && capabilities.length ? notApplicableLabel(capabilities) : sentenceVerdictLabel(outcome);
  const statements = entry.statements.map((id) => {
    const statement = input.map.statements[id];
    const sections = statement?.sections?.length ? ` (also ${statement.sections.map(escapeHtml).join("; ")}, not verified here)` : "";
    return `<p><strong>${id}</strong> <span class="statement" lang="en">${inlineMarkdown(statement?.text ?? "unknown statement")}</span>${sections}</p>`;
  });
  const rules = sentenceRules(input.map, entry).map((id) => ruleHtml(input, rows.get(id), id));
  return `<details class="s"><summary>${sentenceText(text)}${verdictBadge(outcome.verdict, escapeHtml(label))}</summary>
<div class="why" lang="en">${statements.join("")}${rules.join("\n")}</div></details>`;
}

function ruleHtml(input: DocumentationInput, row: MatrixRow | undefined, id: string): string {
  const verdict: RuleVerdict = row?.verdict ?? "no scenario";
  const label = row ? ruleVerdictLabel(row) : VERDICT_LABELS["no scenario"];
  const text = input.ruleTexts.get(id) ?? row?.summary ?? "";
  const scenarios = (row?.scenarios ?? []).map((link) => scenarioHtml(input, link));
  const also = row?.alsoExercisedBy.length
    ? `<p>Also exercised by ${row.alsoExercisedBy.map((link) => `<a href="${scenarioLink(link)}">${escapeHtml(link.name)}</a> (${escapeHtml(scenarioStatusLabel(link))})`).join(", ")}.</p>`
    : "";
  return `<details class="rule"><summary><a href="${specLink(id)}">${id}</a> <small>${row?.profile ?? ""}</small> ${verdictBadge(verdict, escapeHtml(label))}</summary>
<blockquote class="spec">${inlineMarkdown(text)}</blockquote>
${scenarios.length ? `<ul class="scenarios">${scenarios.join("")}</ul>` : "<p>No scenario verifies this rule.</p>"}${also}</details>`;
}

function scenarioHtml(input: DocumentationInput, link: ScenarioLink): string {
  return `<li><details><summary>${verdictBadge(link.status, escapeHtml(scenarioStatusLabel(link)))} ${escapeHtml(link.name)} `
    + `<a class="loc" href="${scenarioLink(link)}">${escapeHtml(scenarioLocation(link))}</a></summary>`
    + `${stepsHtml(input.steps.get(scenarioKey(link)) ?? [])}</details></li>`;
}
