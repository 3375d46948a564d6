// documentation.html: living documentation, one file that opens offline. A tab in English (the statements that the
// editions make) and one per edition of the documentation page, newest first, sentence by sentence; each normative
// sentence carries the verdict of its rules and opens (a <details>) to its statements and links to those rules.
// Each rule (its SPEC text, the scenarios that decide it) and each scenario (its Given/When/Then) is written once,
// after the tabs: under every sentence that used them they made the page 4.8 MB (issue 35, item 5).
import type { ComplianceMatrix, MatrixRow, RuleVerdict } from "./compliance-matrix.js";
import {
  isNormative, ruleSources, sentenceRules, sentenceVerdict, sentenceVerdictLabel, type DocumentationEdition, type DocumentationMap,
  type RuleSource, type SentenceEntry, type SentenceVerdict,
} from "./documentation-map.js";
import { ENGLISH_TAB_ID, tabsCss, tabsHtml, tabsScript, type Tab } from "./documentation-tabs.js";
import { splitEdition, type EditionBlock } from "./edition-sentences.js";
import { escapeHtml, escapeText, inlineMarkdown } from "./html-text.js";
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
header p { margin: .35rem 0; }
section.edition > h2 { margin: .75rem 0 .25rem; }
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
#rules, #scenarios { margin-top: 2.5rem; border-top: 3px solid #d0d7de; }
article.rule { margin: .6rem 0; padding: .4rem .6rem; border: 1px solid #d0d7de; border-radius: 6px; }
article.rule h3 { margin: 0; font-size: 1rem; } article.rule:target, ul.scenarios details:target { outline: 3px solid #d4a72c; }
blockquote.spec { color: #1f2328; font-size: 13.5px; }
ul.scenarios { list-style: none; padding-left: .5rem; margin: .25rem 0; } ul.scenarios > li { margin: .2rem 0; }
ul.eds { margin: .25rem 0; padding-left: 1.2rem; font-size: 13.5px; color: #57606a; } p.eds { margin: .25rem 0; font-size: 13.5px; color: #57606a; }
pre.gherkin { margin: .35rem 0; padding: .35rem .5rem; border-left: 3px solid #d0d7de; background: #f6f8fa; white-space: pre-wrap;
  overflow-wrap: anywhere; font-size: 13px; } pre.gherkin.passed { border-color: #4ac26b; }
ul.scenarios summary { cursor: pointer; } ul.scenarios i { font-style: normal; font-size: 12px; color: #57606a; }
.legend .v { margin-right: .35rem; } table.counts { border-collapse: collapse; margin: .5rem 0; font-size: 14px; }
table.counts th, table.counts td { border: 1px solid #d0d7de; padding: .15rem .5rem; text-align: right; white-space: nowrap; } table.counts th:first-child { text-align: left; }
@media (max-width: 640px) {
  body { font-size: 15px; padding: .75rem; } h1 { font-size: 1.5rem; } .why { padding: .4rem .5rem; } table.counts { font-size: 12px; }
  details.s { margin-left: .9rem; } ul.scenarios { padding-left: 0; } ol.steps { font-size: 12px; }
}
${BADGE_CSS}
${STEPS_CSS}`;

/** A failed step's message is cut to this many lines here; scenarios.html has more, cucumber.html all of it. */
const ERROR_LINES = 2;

/** Why a sentence is not normative when it is the documentation site's chrome, not the page's: left out of the page. */
const SITE_CHROME = /^site navigation/;

export function renderDocumentationHtml(input: DocumentationInput): string {
  const rows = new Map(input.matrix.rows.map((row) => [row.id, row]));
  const tabs: Tab[] = [
    { id: ENGLISH_TAB_ID, label: "English", language: "en", html: englishSection(input, rows) },
    ...input.map.editions.map((edition, index): Tab => ({
      id: edition.id, label: `${edition.name}${index === 0 ? " (newest)" : ""}`, language: edition.language, html: editionSection(input, rows, edition),
    })),
  ];
  const counts = input.map.editions.map((edition) => countSentences(input.map, rows, edition));
  const ruleIds = mappedRules(input.map, rows);
  const run = input.matrix.run;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The documentation, sentence by sentence — ${escapeHtml(headlineSentence(input.matrix))}</title>
<style>${STYLE}\n${RULE_LINK_CSS}${tabsCss(tabs)}</style>
</head>
<body>
<header>
<h1>The documentation, sentence by sentence</h1>
<p>${run?.adapterName ? `Implementation <strong>${escapeHtml(run.adapterName)}</strong> · ` : ""}<strong>${escapeHtml(headlineSentence(input.matrix))}</strong>`
  + `${run ? ` · generated ${escapeHtml(run.generatedAt)}` : ""}.</p>
<p>Each normative sentence of each edition shows the verdict of the SPEC rules that encode it; open it for its statements `
  + `and its rules. Sentences in grey are not normative (headings, labels). The <a href="#rules">rules</a>, with their text and the `
  + `scenarios that decide them, follow the editions. `
  + `See also <a href="compliance.html">compliance.html</a>, <a href="spec.html">spec.html</a> and <a href="scenarios.html">scenarios.html</a>.</p>
<p class="legend">${SENTENCE_VERDICTS.map((verdict) => verdictBadge(verdict, escapeHtml(legend(verdict)))).join(" ")}</p>
${countsTable(input.map.editions, counts)}
</header>
${tabsHtml(tabs)}
${rulesSection(input, rows, ruleIds)}
${tabsScript(tabs)}
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
    counts[outcomeOf(map, rows, entry, edition).verdict] += 1;
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

function outcomeOf(map: DocumentationMap, rows: ReadonlyMap<string, MatrixRow>, entry: SentenceEntry, edition: DocumentationEdition) {
  return sentenceVerdict(sentenceRules(map, entry, edition).map((id): RuleVerdict => rows.get(id)?.verdict ?? "no scenario"));
}

function editionSection(input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>, edition: DocumentationEdition): string {
  const text = input.editionTexts[edition.id];
  if (text === undefined) return `<section class="edition" id="${edition.id}" role="tabpanel"><h2>${escapeHtml(edition.name)}</h2><p>The page is missing from this kit.</p></section>`;
  const entries = new Map<string, SentenceEntry[]>();
  for (const entry of edition.sentences) entries.set(entry.text, [...(entries.get(entry.text) ?? []), entry]);
  const sentence = (text: string): string => sentenceHtml(input, rows, edition, text, entries.get(text)?.shift());
  const chrome = new Set(edition.sentences.filter((entry) => !isNormative(entry) && SITE_CHROME.test(entry.notNormative)).map((entry) => entry.text));
  const html: string[] = [];
  let list: { kind: string; items: string[] } | undefined;
  const flush = (): void => {
    if (list) html.push(`<ul class="doc ${list.kind}">${list.items.map((item) => `<li>${item}</li>`).join("")}</ul>`);
    list = undefined;
  };
  for (const whole of splitEdition(text)) {
    const block = { ...whole, sentences: whole.sentences.filter((candidate) => !chrome.has(candidate)) };
    if (block.sentences.length === 0) continue;
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
  return `<section class="edition" id="${edition.id}" lang="${escapeHtml(edition.language)}" role="tabpanel">
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
  return text.startsWith("{") ? `<pre class="doc"><code>${escapeText(text)}</code></pre>` : inlineMarkdown(text).replace(/ \| /g, " — ");
}

function sentenceHtml(
  input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>, edition: DocumentationEdition, text: string, entry: SentenceEntry | undefined,
): string {
  if (!entry) return `<div class="s unmapped">${sentenceText(text)} ${verdictBadge("failed", "not in the documentation map")}</div>`;
  if (!isNormative(entry)) return `<div class="s nn" title="not normative: ${escapeHtml(entry.notNormative)}">${sentenceText(text)}</div>`;
  const outcome = outcomeOf(input.map, rows, entry, edition);
  const ruleIds = sentenceRules(input.map, entry, edition);
  const capabilities = ruleIds.flatMap((id) => {
    const row = rows.get(id);
    return row?.verdict === "not applicable" ? row.scenarios.flatMap((link) => link.capabilities ?? []) : [];
  });
  const label = outcome.verdict === "not applicable" && capabilities.length ? notApplicableLabel(capabilities) : sentenceVerdictLabel(outcome);
  const statements = entry.statements.map((id) => {
    const statement = input.map.statements[id];
    const sections = statement?.sections?.length ? ` (also ${statement.sections.map(escapeHtml).join("; ")}, not verified here)` : "";
    return `<p><strong>${id}</strong> <span class="statement" lang="en">${inlineMarkdown(statement?.text ?? "unknown statement")}</span>${sections}</p>`;
  });
  const also = entry.also ? `<p>Also ${entry.also.rules.join(", ")}: ${inlineMarkdown(entry.also.why)}.</p>` : "";
  const linked = new Set(sentenceRules(input.map, entry));
  const left = (edition.notStated ?? []).flatMap(({ rules, why }) => {
    const here = rules.filter((id) => linked.has(id));
    return here.length ? [`<p>Not stated by this edition: ${here.join(", ")}. ${inlineMarkdown(why)}</p>`] : [];
  });
  return `<details class="s"><summary>${sentenceText(text)}${verdictBadge(outcome.verdict, escapeHtml(label))}</summary>
<div class="why" lang="en">${statements.join("")}${also}${left.join("")}${ruleLinks(rows, ruleIds)}</div></details>`;
}

/**
 * A rule link's verdict, unless it passed (the sentence's badge says the rest), as a short class whose CSS writes
 * the word: the four editions hold some 1,400 of these links, and documentation.html's size is bounded (issue 35).
 */
const RULE_LINK_CLASSES: Record<Exclude<RuleVerdict, "passed">, string> = {
  failed: "f", diverges: "d", skipped: "s", "not applicable": "na", "not run": "nr", "no scenario": "ns", "not in this edition": "ne",
};

const RULE_LINK_CSS = Object.entries(RULE_LINK_CLASSES)
  .map(([verdict, name]) => `.rules a.${name}::after { content: " (${verdict})"; color: ${verdict === "failed" ? "#a40e26" : "#57606a"}; font-size: 12px; }`)
  .join("\n");

/** A sentence's or a statement's rules: each a link to its entry under "Rules". */
function ruleLinks(rows: ReadonlyMap<string, MatrixRow>, ids: readonly string[]): string {
  const links = ids.map((id) => {
    const verdict = rows.get(id)?.verdict ?? "no scenario";
    return `<a${verdict === "passed" ? "" : ` class="${RULE_LINK_CLASSES[verdict]}"`} href="#r-${id}">${id}</a>`;
  });
  return `<p class="rules">Rules: ${links.join(", ")}.</p>`;
}

/** The English tab: each statement of SPEC Appendix A with its verdict, its rules and the editions that state it. */
function englishSection(input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>): string {
  const statedBy = new Map<string, string[]>();
  for (const edition of input.map.editions) {
    for (const entry of edition.sentences) {
      if (!isNormative(entry)) continue;
      for (const id of entry.statements) statedBy.set(id, [...new Set([...(statedBy.get(id) ?? []), edition.name])]);
    }
  }
  const items = Object.entries(input.map.statements).map(([id, statement]) => {
    const outcome = sentenceVerdict(statement.rules.map((rule): RuleVerdict => rows.get(rule)?.verdict ?? "no scenario"));
    const editions = statedBy.get(id) ?? [];
    const sections = statement.sections?.length ? `<p>Also ${statement.sections.map(escapeHtml).join("; ")}, not verified here.</p>` : "";
    return `<details class="s"><summary><strong>${id}</strong> ${inlineMarkdown(statement.text)}${verdictBadge(outcome.verdict, escapeHtml(sentenceVerdictLabel(outcome)))}</summary>
<div class="why"><p>Stated by ${editions.length ? editions.map(escapeHtml).join(", ") : "no edition"}.</p>${sections}${ruleLinks(rows, statement.rules)}</div></details>`;
  });
  return `<section class="edition" id="${ENGLISH_TAB_ID}" lang="en" role="tabpanel">
<h2>English: what the editions state</h2>
<p class="about">The statements of SPEC Appendix A, in English: N… as the newest edition states them, L… what only older editions `
  + `state. The other tabs show each edition's own text, sentence by sentence.</p>
${items.join("\n")}
</section>`;
}

/** The rules that a statement of the map names, in catalog order. */
function mappedRules(map: DocumentationMap, rows: ReadonlyMap<string, MatrixRow>): string[] {
  const named = new Set(Object.values(map.statements).flatMap((statement) => statement.rules));
  return [...rows.keys(), ...[...named].filter((id) => !rows.has(id))].filter((id) => named.has(id));
}

/** Each mapped rule once; each scenario with its steps once, under the first rule it decides, and linked from the others. */
function rulesSection(input: DocumentationInput, rows: ReadonlyMap<string, MatrixRow>, ids: readonly string[]): string {
  const shown = new Set<string>();
  const sources = ruleSources(input.map);
  const names = new Map(input.map.editions.map((edition) => [edition.id, edition.name]));
  // Upstream rules are in no edition (SPEC §0.4), though a statement may name them as the exact form of a doc rule.
  const notStated = new Map<string, Array<{ edition: string; why: string }>>();
  for (const edition of input.map.editions) {
    for (const { rules, why } of edition.notStated ?? []) {
      for (const id of rules) notStated.set(id, [...(notStated.get(id) ?? []), { edition: edition.id, why }]);
    }
  }
  const statedBy = (id: string): string => (rows.get(id)?.profile === "upstream" || rows.get(id)?.profile === "reference"
    ? "" : statedByHtml(sources.get(id) ?? [], notStated.get(id) ?? [], names));
  return `<section id="rules"><h2>Rules and their scenarios</h2>\n${ids.map((id) => ruleHtml(input, rows.get(id), id, shown, statedBy(id))).join("\n")}\n</section>`;
}

/**
 * The editions that state a rule, each with the first of its sentences that links the rule (`--edition` counts
 * them), then the older editions that link it without stating it, each with the reason.
 */
function statedByHtml(
  sources: readonly RuleSource[], notStated: ReadonlyArray<{ edition: string; why: string }>, names: ReadonlyMap<string, string>,
): string {
  const name = (edition: string): string => `<a href="#${edition}">${escapeHtml(names.get(edition) ?? edition)}</a>`;
  const items = sources.map(({ edition, sentence }) => {
    const text = sentence.startsWith("{") ? `<code>${escapeText(sentence)}</code>` : sentenceText(sentence);
    return `<li>${name(edition)}: ${text}</li>`;
  });
  const reasons = notStated.map(({ edition, why }) => `<li>Not in ${name(edition)}: ${inlineMarkdown(why)}</li>`);
  if (items.length === 0 && reasons.length === 0) return "<p class=\"eds\">Stated by no edition.</p>";
  return `<ul class="eds">${[...items, ...reasons].join("")}</ul>`;
}

/**
 * A scenario's steps as the feature file writes them, in one <pre>, when they share one status (passed, or not
 * run): some 5,500 steps, and a list item each made the page 100 KB larger. Mixed statuses (a failed step) keep
 * the list of scenarios.html, with the failed step's message.
 */
function scenarioStepsHtml(steps: readonly ScenarioStep[]): string {
  const statuses = new Set(steps.map((step) => step.status));
  if (steps.length === 0 || statuses.size > 1) return stepsHtml(steps, { errorLines: ERROR_LINES });
  const status = steps[0]?.status;
  const lines = steps.flatMap((step) => [
    `${step.keyword.trim()} ${step.text}`,
    ...(step.docString === undefined ? [] : ['  """', ...step.docString.split("\n").map((line) => `  ${line}`), '  """']),
    ...(step.dataTable ?? []).map((row) => `  | ${row.join(" | ")} |`),
  ]);
  return `<pre class="gherkin${status ? ` ${status.toLowerCase()}` : ""}">${escapeText(lines.join("\n"))}</pre>`;
}

/** A scenario's anchor in this page, short: `s-poll-42` for features/poll.feature:42 (some 1,000 ids and links). */
const localAnchor = (link: { uri: string; line?: number }): string => `s-${link.uri.replace(/^features\//, "").replace(/\.feature$/, "").replace(/[^A-Za-z0-9]+/g, "-")}-${link.line ?? 0}`;

function ruleHtml(input: DocumentationInput, row: MatrixRow | undefined, id: string, shown: Set<string>, statedBy: string): string {
  const verdict: RuleVerdict = row?.verdict ?? "no scenario";
  const label = row ? ruleVerdictLabel(row) : VERDICT_LABELS["no scenario"];
  const text = input.ruleTexts.get(id) ?? row?.summary ?? "";
  const scenarios = (row?.scenarios ?? []).map((link) => {
    // A scenario whose status is its rule's verdict (passed, not run) needs no badge of its own; a failed one does.
    const badge = link.status === verdict && verdict !== "failed" ? "" : `${verdictBadge(link.status, escapeHtml(scenarioStatusLabel(link)))} `;
    const location = `<i>${escapeText(scenarioLocation(link).replace(/^features\//, ""))}</i>`;
    if (shown.has(scenarioKey(link))) return `<li>${badge}<a href="#${localAnchor(link)}">${escapeText(link.name)}</a> ${location}</li>`;
    shown.add(scenarioKey(link));
    return `<li><details id="${localAnchor(link)}"><summary>${badge}${escapeText(link.name)} ${location}</summary>`
      + `${scenarioStepsHtml(input.steps.get(scenarioKey(link)) ?? [])}</details></li>`;
  });
  const also = row?.alsoExercisedBy.length
    ? `<p>Also exercised by ${row.alsoExercisedBy.map((link) => `<a href="${scenarioLink(link)}">${escapeHtml(link.name)}</a> (${escapeHtml(scenarioStatusLabel(link))})`).join(", ")}.</p>`
    : "";
  return `<article class="rule" id="r-${id}"><h3><a href="${specLink(id)}">${id}</a> <small>${row?.profile ?? ""}</small> ${verdictBadge(verdict, escapeHtml(label))}</h3>
<blockquote class="spec">${inlineMarkdown(text)}</blockquote>
${statedBy}${scenarios.length ? `<ul class="scenarios">${scenarios.join("")}</ul>` : "<p>No scenario verifies this rule.</p>"}${also}</article>`;
}
