// The pages a report links to: spec.html (an anchor per rule), scenarios.html (every scenario expanded),
// documentation.html (the editions sentence by sentence, with verdict badges), and compliance.md in a 100-column
// terminal (wrapping that never cuts a code span; summaries never cut inside one).
import { TestStepResultStatus } from "@cucumber/messages";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import { firstSentence, type RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { buildComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import type { DocumentationMap } from "../../conformance/report/documentation-map.js";
import { TERMINAL_COLUMNS, displayWidth, wrapMarkdown } from "../../conformance/report/markdown-wrap.js";
import { renderDocumentationHtml } from "../../conformance/report/render-documentation-html.js";
import { renderMarkdown } from "../../conformance/report/render-markdown.js";
import { renderScenariosHtml } from "../../conformance/report/render-scenarios-html.js";
import type { ScenarioResult } from "../../conformance/report/scenario-results.js";
import { readFeatureScenarios, scenarioKey, type ScenarioStep } from "../../conformance/report/scenario-steps.js";
import { readRuleTexts, renderSpecHtml } from "../../conformance/report/spec-document.js";

const PASSED = TestStepResultStatus.PASSED;

const rule = (id: string, profile: RuleEntry["profile"] = "doc", summary = `Summary of ${id}.`): RuleEntry => (
  { id, prefix: id.split("-")[0]!, profile, chapter: "7. `process` actions", section: "7.3 `poll`", summary });

const SPEC = `# Spec

## 7. \`process\` actions

### 7.3 \`poll\`

Intro with **bold** and a \`code\` span.

- **POLL-01** [doc] Polling returns new output.
- **POLL-02** [upstream] The running text is \`<output>\`
  and continues here.
- not a rule

| A | B |
|---|---|
| \`x\` | y \\| z |
`;

describe("spec.html and the SPEC text of each rule", () => {
  it("reads the full text of each rule, continuation lines included", () => {
    expect(readRuleTexts(SPEC)).toEqual(new Map([
      ["POLL-01", "Polling returns new output."],
      ["POLL-02", "The running text is `<output>` and continues here."],
    ]));
  });

  it("renders each rule under its own anchor, with headings, tables and inline code", () => {
    const html = renderSpecHtml(SPEC);
    expect(html).toContain('<li class="rule" id="POLL-01"><a class="id" href="#POLL-01">POLL-01</a> [doc] Polling returns new output.</li>');
    expect(html).toContain('<li class="rule" id="POLL-02"><a class="id" href="#POLL-02">POLL-02</a> [upstream] The running text is <code>&lt;output&gt;</code> and continues here.</li>');
    expect(html).toContain('<h3 id="7-3-poll">7.3 <code>poll</code></h3>');
    expect(html).toContain("<p>Intro with <strong>bold</strong> and a <code>code</code> span.</p>");
    expect(html).toContain("<tr><td><code>x</code></td><td>y | z</td></tr>");
    expect(html).not.toContain("<script");
  });

  it("has an anchor for every rule of the catalog in the shipped docs/SPEC.md", () => {
    const html = renderSpecHtml(readFileSync(new URL("../../docs/SPEC.md", import.meta.url), "utf8"));
    const missing = (catalog as RuleEntry[]).filter((entry) => !html.includes(`<li class="rule" id="${entry.id}">`)).map((entry) => entry.id);
    expect(missing).toEqual([]);
  });
});

describe("summaries and compliance.md in a 100-column terminal", () => {
  it("never cuts a summary inside a code span", () => {
    const long = `A rule whose text is long ${"word ".repeat(30)}and ends in \`a code span that would be cut at two hundred characters\` and more.`;
    const summary = firstSentence(long);
    expect(summary).toBe(`A rule whose text is long ${"word ".repeat(30)}and ends in…`);
    expect(firstSentence("Text `a. b` goes on. Second.")).toBe("Text `a. b` goes on.");
    const cut = (catalog as RuleEntry[]).filter((entry) => (entry.summary.match(/`/g) ?? []).length % 2 === 1).map((entry) => entry.id);
    expect(cut).toEqual([]);
  });

  it("counts emoji and wide characters as two columns", () => {
    expect(displayWidth("✅ ok")).toBe(5);
    expect(displayWidth("⚠️ x")).toBe(4);
    expect(displayWidth("后台")).toBe(4);
  });

  it("wraps at spaces, keeping code spans and link targets whole", () => {
    const text = "one two `a code span with spaces` three [a link](spec.html#POLL-01) four";
    expect(wrapMarkdown(text, 20, "- ", "  ")).toEqual(["- one two", "  `a code span with spaces`", "  three [a", "  link](spec.html#POLL-01)", "  four"]);
  });

  it("writes no line wider than 100 columns except a single code span or link", () => {
    const longName = `a scenario whose name is long ${"and longer ".repeat(8)}than any terminal`;
    const rules = [rule("POLL-01", "doc", `Long summary ${"with many words ".repeat(12)}\`and a code span\`.`), rule("POLL-02", "upstream")];
    const scenarios: ScenarioResult[] = [
      { name: longName, uri: "features/poll.feature", line: 12, tags: ["@POLL-01", "@doc", "@pty"], status: "not applicable", capabilities: ["@pty"] },
      { name: "short", uri: "features/poll.feature", line: 40, tags: ["@POLL-02", "@POLL-01", "@upstream"], status: "failed", cucumberStatus: "UNDEFINED" as never },
    ];
    const matrix = buildComplianceMatrix({ rules, scenarios, divergences: { "POLL-02": `A divergence note ${"that goes on ".repeat(10)}.` } });
    matrix.run = { generatedAt: "1970-01-01T00:00:00.000Z", tagExpression: "(@doc) and (not @slow)", adapterName: "stdio: python3 -m my_impl.server --flag" };
    const markdown = renderMarkdown(matrix);
    const wide = markdown.split("\n").filter((line) => displayWidth(line) > TERMINAL_COLUMNS && line.split(" ").length > 2);
    expect(wide).toEqual([]);
    expect(markdown).toContain("### [POLL-01](spec.html#POLL-01) · doc · ➖ not applicable (capability pty missing)");
    expect(markdown).toContain("Divergence (explained): A divergence note");
  });
});

const FEATURE = `Feature: poll

  Background:
    Given a fresh engine

  Rule: polling

    @POLL-01 @doc
    Scenario: poll returns output
      When exec runs:
        """
        echo hi
        """
      Then the details contain:
        | status | running |

    @POLL-02 @upstream
    Scenario Outline: clamp <value>
      When poll waits <value> ms
      Then it waits <expected> ms

      Examples:
        | value | expected |
        | 40000 | 30000    |
`;

describe("the steps of each scenario", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "report-pages-"));
    writeFileSync(join(dir, "poll.feature"), FEATURE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("are read from the feature files with their keywords, background, doc strings, tables and example values", () => {
    const [first, outline] = readFeatureScenarios(dir);
    expect(first).toMatchObject({ uri: "poll.feature", name: "poll returns output", line: 9, tags: ["@POLL-01", "@doc"] });
    expect(first?.steps).toEqual([
      { keyword: "Given ", text: "a fresh engine" },
      { keyword: "When ", text: "exec runs:", docString: "echo hi" },
      { keyword: "Then ", text: "the details contain:", dataTable: [["status", "running"]] },
    ]);
    expect(outline).toMatchObject({ name: "clamp 40000", line: 24 });
    expect(outline?.steps.map((step) => `${step.keyword}${step.text}`)).toEqual(["Given a fresh engine", "When poll waits 40000 ms", "Then it waits 30000 ms"]);
  });
});

// ---- documentation.html from a fixture result ----

const EDITION = `# Background exec

The exec tool runs shell commands. The process tool manages sessions.

* Foreground runs return output directly.
* Sessions are lost on restart.

| Key | Effect |
| --- | --- |
| \`timeout\` | kill after this timeout |

Examples:

{ "tool": "exec", "command": "ls" }
A sentence nobody mapped.`;

const MAP: DocumentationMap = {
  editions: [{
    id: "en", language: "en", name: "English fixture", description: "A fixture edition.", file: "editions/en.txt",
    sentences: [
      { text: "Background exec", notNormative: "heading" },
      { text: "The exec tool runs shell commands.", statements: ["N01"] },
      { text: "The process tool manages sessions.", statements: ["N02"] },
      { text: "Foreground runs return output directly.", statements: ["N03"] },
      { text: "Sessions are lost on restart.", statements: ["N04"] },
      { text: "Key | Effect", notNormative: "table header" },
      { text: "`timeout` | kill after this timeout", statements: ["N05"] },
      { text: "Examples:", notNormative: "label" },
      { text: "{ \"tool\": \"exec\", \"command\": \"ls\" }", statements: ["N01"] },
    ],
  }],
  statements: {
    N01: { text: "Runs shell commands.", rules: ["EXEC-01", "EXEC-02"] },
    N02: { text: "Manages sessions.", rules: ["EXEC-01", "PROC-01"] },
    N03: { text: "Foreground output.", rules: ["RES-03"] },
    N04: { text: "Lost on restart.", rules: ["REG-01"], sections: ["§14 (persistence)"] },
    N05: { text: "`timeout` kills.", rules: ["EXEC-04"] },
  },
};

describe("documentation.html rendered from a fixture result", () => {
  const rules = [rule("EXEC-01"), rule("EXEC-02"), rule("PROC-01"), rule("RES-03"), rule("REG-01"), rule("EXEC-04", "legacy-doc")];
  const scenarios: ScenarioResult[] = [
    { name: "exec runs a command", uri: "features/exec.feature", line: 5, tags: ["@EXEC-01", "@EXEC-02", "@doc"], status: "passed" },
    { name: "process lists", uri: "features/process.feature", line: 7, tags: ["@PROC-01", "@doc"], status: "failed" },
    { name: "a pty result", uri: "features/results.feature", line: 9, tags: ["@RES-03", "@doc", "@pty"], status: "not applicable", capabilities: ["@pty"] },
    { name: "timeout alias", uri: "features/legacy.feature", line: 3, tags: ["@EXEC-04", "@legacy-doc"], status: "not run" },
  ];
  const matrix = buildComplianceMatrix({ rules, scenarios });
  matrix.run = { generatedAt: "1970-01-01T00:00:00.000Z", adapterName: "fixture" };
  const steps = new Map<string, ScenarioStep[]>([[scenarioKey(scenarios[0]!), [
    { keyword: "Given ", text: "a fresh engine", status: PASSED },
    { keyword: "When ", text: "exec runs \"echo hi\"", status: PASSED },
    { keyword: "Then ", text: "the text is \"hi\"", docString: "hi", status: PASSED },
  ]]]);
  const html = renderDocumentationHtml({
    map: MAP, editionTexts: { en: EDITION }, matrix, steps,
    ruleTexts: new Map([["EXEC-01", "The exec tool MUST run `command` in a shell."]]),
  });
  /** The HTML of the sentence that starts with `text`, up to the next sentence. */
  const sentence = (text: string): string => {
    const start = html.search(new RegExp(`<(details class="s"><summary>|div class="s[^"]*"[^>]*>)(<pre class="doc"><code>)?${text}`));
    expect(start, text).toBeGreaterThan(-1);
    const rest = html.slice(start + 1);
    const end = rest.search(/<(details class="s"|div class="s)/);
    return end === -1 ? rest : rest.slice(0, end);
  };

  it("is one standalone page: no external asset, one inline script (the tab to open), a viewport for phones", () => {
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<link|<img|@import|url\(|<script [^>]*src/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain("@media (max-width: 640px)");
  });

  it("gives each normative sentence the badge of its rules' verdicts", () => {
    expect(sentence("The exec tool runs shell commands.")).toContain('<span class="v v-passed">all 2 rules passed</span></summary>');
    expect(sentence("The process tool manages sessions.")).toContain('<span class="v v-failed">some rules failed</span></summary>');
    expect(sentence("Foreground runs return output directly.")).toContain('<span class="v v-not-applicable">not applicable (capability pty missing)</span></summary>');
    expect(sentence("Sessions are lost on restart.")).toContain('<span class="v v-not-run">not run</span></summary>');
    expect(sentence("<code>timeout</code> — kill after this timeout")).toContain('<span class="v v-not-run">not run</span></summary>');
    expect(sentence('\\{ "tool"')).toContain('<span class="v v-passed">all 2 rules passed</span></summary>');
  });

  it("shows sentences that are not normative without a badge, with the reason", () => {
    expect(sentence("Background exec")).toMatch(/^div class="s nn" title="not normative: heading">Background exec<\/div><\/div>\n/);
    expect(sentence("Examples:")).not.toContain('class="v ');
  });

  it("flags a sentence of the edition that the map does not list", () => {
    expect(sentence("A sentence nobody mapped.")).toContain('<span class="v v-failed">not in the documentation map</span>');
  });

  it("opens a sentence to its statement and links to its rules, each with its verdict unless it passed", () => {
    const opened = sentence("The exec tool runs shell commands.");
    expect(opened).toContain('<p><strong>N01</strong> <span class="statement" lang="en">Runs shell commands.</span></p>');
    expect(opened).toContain('<p class="rules">Rules: <a href="#r-EXEC-01">EXEC-01</a>, <a href="#r-EXEC-02">EXEC-02</a>.</p>');
    expect(sentence("The process tool manages sessions.")).toContain('<a class="f" href="#r-PROC-01">PROC-01</a>');
    expect(html).toContain('.rules a.f::after { content: " (failed)";');
    expect(sentence("Sessions are lost on restart.")).toContain("(also §14 (persistence), not verified here)");
  });

  it("writes each rule once, with its SPEC text, and each scenario once, with its steps, under its first rule", () => {
    const rule = (id: string): string => html.slice(html.indexOf(`<article class="rule" id="r-${id}">`), html.indexOf("</article>", html.indexOf(`id="r-${id}"`)));
    expect(html.match(/<article class="rule" id="r-EXEC-01">/g)).toHaveLength(1);
    expect(rule("EXEC-01")).toContain('<h3><a href="spec.html#EXEC-01">EXEC-01</a> <small>doc</small> <span class="v v-passed">passed</span></h3>');
    expect(rule("EXEC-01")).toContain('<blockquote class="spec">The exec tool MUST run <code>command</code> in a shell.</blockquote>');
    expect(rule("EXEC-01")).toContain('<li><details id="s-exec-5"><summary>exec runs a command <i>exec.feature:5</i></summary>'
      + '<pre class="gherkin passed">Given a fresh engine\nWhen exec runs "echo hi"\nThen the text is "hi"\n  \"\"\"\n  hi\n  \"\"\"</pre>');
    // EXEC-02 is decided by the same scenario: a link to it, not its steps again
    expect(rule("EXEC-02")).toContain('<li><a href="#s-exec-5">exec runs a command</a> <i>exec.feature:5</i></li>');
    expect(html.match(/Given a fresh engine/g)).toHaveLength(1);
    expect(rule("RES-03")).toContain('<details id="s-results-9"><summary>a pty result');
  });

  it("counts the normative sentences of each edition by verdict", () => {
    expect(html).toContain('<tr><th><a href="#en">English fixture</a></th><td>6</td><td>2</td><td>1</td><td>0</td><td>1</td><td>2</td></tr>');
  });

  it("renders scenarios.html with every scenario under its anchor, its steps shown", () => {
    const page = renderScenariosHtml(scenarios, steps);
    expect(page).toContain('<article id="s-features-exec-feature-5">');
    expect(page).toContain('<a href="spec.html#EXEC-01">@EXEC-01</a> <a href="spec.html#EXEC-02">@EXEC-02</a> @doc');
    expect(page).toContain('<ol class="steps passed"><li><b>Given</b> a fresh engine</li>');
    expect(page).not.toContain("<details");
  });
});
