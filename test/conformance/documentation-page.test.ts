// documentation.html of the whole kit: at most 1 MB for the four editions (issue 35, item 5: each rule and each
// scenario once, linked from the sentences), no site chrome (issue 37), and, in headless Chromium, a page that
// opens in English and shows each edition's text under its tab (issue 37). The browser is Debian's chromium,
// driven by playwright-core; without it the browser tests are skipped, and say why.
import { TestStepResultStatus } from "@cucumber/messages";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import documentationMap from "../../conformance/catalog/documentation-map.json" with { type: "json" };
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { buildComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import { isNormative, type DocumentationMap } from "../../conformance/report/documentation-map.js";
import { renderDocumentationHtml } from "../../conformance/report/render-documentation-html.js";
import type { ScenarioResult } from "../../conformance/report/scenario-results.js";
import { readFeatureScenarios, scenarioKey, type ScenarioStep } from "../../conformance/report/scenario-steps.js";
import { readRuleTexts } from "../../conformance/report/spec-document.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const MAP = documentationMap as DocumentationMap;
const MAX_BYTES = 1_000_000;
/** Debian's chromium (apt-get install chromium; .ci/run installs it): Playwright's own browser download is not used. */
const CHROMIUM = "/usr/bin/chromium";

/** A failed step's message as the kit writes one: a headline, then what was expected and what came. */
const FAILURE = ["text check \"exactly\" failed (first difference at character 0 of the text).", "  expected: \"bye\"",
  "  received: \"hi\"", ...Array.from({ length: 20 }, (_, line) => `    at step ${line} (step-definitions/text-steps.ts:${line})`)].join("\n");

/** The page after a run in which every scenario of the kit ran: one in ten failed at its last step, the others passed. */
function renderWholeKit(): string {
  const features = readFeatureScenarios(join(ROOT, "features"));
  const steps = new Map<string, ScenarioStep[]>();
  const scenarios = features.map((scenario, index): ScenarioResult => {
    const uri = `features/${scenario.uri}`;
    const failed = index % 10 === 0;
    steps.set(scenarioKey({ uri, line: scenario.line }), scenario.steps.map((step, at) => (failed && at === scenario.steps.length - 1
      ? { ...step, status: TestStepResultStatus.FAILED, message: FAILURE }
      : { ...step, status: TestStepResultStatus.PASSED })));
    return { uri, name: scenario.name, line: scenario.line, tags: scenario.tags, status: failed ? "failed" : "passed" };
  });
  const matrix = buildComplianceMatrix({ rules: catalog as RuleEntry[], scenarios });
  matrix.run = { generatedAt: "1970-01-01T00:00:00.000Z", adapterName: "fixture" };
  const editionTexts = Object.fromEntries(MAP.editions.map((edition) => [edition.id, readFileSync(join(ROOT, "docs", edition.file), "utf8")]));
  return renderDocumentationHtml({ map: MAP, editionTexts, matrix, steps, ruleTexts: readRuleTexts(readFileSync(join(ROOT, "docs/SPEC.md"), "utf8")) });
}

const html = renderWholeKit();

describe("documentation.html of the whole kit", () => {
  it("is at most 1 MB for the four editions", () => {
    expect(MAP.editions).toHaveLength(4);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(MAX_BYTES);
  });

  it("writes each rule and each scenario once, and links the sentences to them", () => {
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length - new Set(ids).size).toBe(0);
    expect(html).toContain('<article class="rule" id="r-EXEC-01">');
    expect(html.match(/<a (class="\w+" )?href="#r-EXEC-01">/g)?.length).toBeGreaterThan(1);
  });

  it("names under each documented rule the editions that state it, each with a sentence (issue 35, item 6)", () => {
    const article = (id: string): string => {
      const start = html.indexOf(`<article class="rule" id="r-${id}">`);
      return html.slice(start, html.indexOf("</article>", start));
    };
    expect(article("SET-06")).toContain('<li><a href="#sv">Swedish</a>: PI_BASH_YIELD_MS: standard-yield (ms)</li>');
    expect(article("SET-06")).not.toContain('href="#zh"');
    expect(article("POLL-07")).toContain('<li><a href="#zh">Chinese</a>: ');
    expect(article("POLL-07")).not.toContain('<li><a href="#sv">');
    expect(article("POLL-07")).toContain("<li>Not in <a href=\"#sv\">Swedish</a>: poll's <code>timeout</code>");
    expect(article("EXEC-38")).toContain('<li>Not in <a href="#ja">Japanese</a>: The page says a command is backgrounded');
    expect(article("PROC-01")).toContain('href="#ja"');
    expect(article("PROC-01")).not.toContain('<li><a href="#tl">');
    expect(article("PROC-01")).toContain('<li>Not in <a href="#tl">Tagalog</a>: The page lists seven actions');
    // A sentence of an older edition says which of its statements' rules the edition does not state, and why.
    const swedish = html.slice(html.indexOf('<section class="edition" id="sv"'), html.indexOf("</section>", html.indexOf('<section class="edition" id="sv"')));
    const poll = swedish.slice(swedish.indexOf("<summary>poll:"), swedish.indexOf("</details>", swedish.indexOf("<summary>poll:")));
    expect(poll).toContain("<p>Not stated by this edition: POLL-07. poll's <code>timeout</code>");
    expect(poll).toContain("<p>Not stated by this edition: PROC-01. The page lists seven actions");
    expect(poll).not.toContain('href="#r-POLL-07"');
    expect(poll).toContain('href="#r-POLL-03"');
    // An upstream rule is in no edition, though a statement names it as the exact form of a doc rule.
    expect(article("POLL-02")).not.toContain('class="eds"');
  });

  it("carries no text of the documentation site", () => {
    expect(html).not.toContain("Documentation Index");
    expect(html).not.toContain("llms.txt");
    expect(html).not.toContain("Hoppa till huvudinnehåll");
  });
});

/** An edition's first normative sentence without Markdown marks: its text as a reader sees it. */
function firstPlainSentence(editionId: string): string {
  const edition = MAP.editions.find((candidate) => candidate.id === editionId);
  const entry = edition?.sentences.find((candidate) => isNormative(candidate) && !/[`*{|]/.test(candidate.text));
  if (!entry) throw new Error(`edition ${editionId} has no plain normative sentence`);
  return entry.text;
}

const browserTests = existsSync(CHROMIUM)
  ? describe
  : describe.skip;

browserTests(existsSync(CHROMIUM) ? "documentation.html in headless Chromium" : `documentation.html in headless Chromium: skipped, no browser at ${CHROMIUM} (apt-get install chromium)`, () => {
  let browser: Browser | undefined;
  let dir = "";
  let url = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "documentation-page-test-"));
    writeFileSync(join(dir, "documentation.html"), html);
    url = `file://${join(dir, "documentation.html")}`;
    // root on the test machines: chromium refuses to start sandboxed as root
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A page opened in a browser whose reader's languages are `locale`. */
  const open = async (locale: string) => {
    const context = await browser!.newContext({ locale, viewport: { width: 1024, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    return { page, close: () => context.close() };
  };

  it("opens in English, with the verdicts on its first screen", async () => {
    const { page, close } = await open("en-US");
    try {
      expect(await page.locator("#english").isVisible()).toBe(true);
      for (const edition of MAP.editions) expect(await page.locator(`#${edition.id}`).isVisible(), edition.id).toBe(false);
      expect(await page.locator("header .legend .v-passed").isVisible()).toBe(true);
      expect(await page.locator("#english details.s .v").first().isVisible()).toBe(true);
      await page.screenshot({ path: join(dir, "first-screen.png") });
      if (process.env["DOCUMENTATION_SCREENSHOT"]) writeFileSync(process.env["DOCUMENTATION_SCREENSHOT"], readFileSync(join(dir, "first-screen.png")));
    } finally {
      await close();
    }
  }, 60_000);

  it("shows each edition's text under its tab, and no other", async () => {
    const { page, close } = await open("en-US");
    try {
      for (const edition of MAP.editions) {
        await page.locator(`label[for="tab-${edition.id}"]`).click();
        expect(await page.locator(`#${edition.id}`).isVisible(), edition.id).toBe(true);
        expect(await page.locator("#english").isVisible()).toBe(false);
        expect(await page.locator(`#${edition.id}`).innerText()).toContain(firstPlainSentence(edition.id));
      }
    } finally {
      await close();
    }
  }, 60_000);

  it("opens the edition in the reader's language when the browser names one", async () => {
    const { page, close } = await open("ja-JP");
    try {
      expect(await page.locator("#ja").isVisible()).toBe(true);
      expect(await page.locator("#english").isVisible()).toBe(false);
    } finally {
      await close();
    }
  }, 60_000);
});
