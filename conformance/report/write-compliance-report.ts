// Writes compliance.md, compliance.html and compliance.json next to the messages.ndjson of a finished run, and the
// pages they link to: spec.html (SPEC.md with an anchor per rule), scenarios.html (every scenario expanded) and
// documentation.html (the documentation's editions sentence by sentence, with verdicts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import catalog from "../catalog/rules.json" with { type: "json" };
import documentationMap from "../catalog/documentation-map.json" with { type: "json" };
import type { RuleEntry } from "../catalog/spec-rules.js";
import { NEWEST_EDITION, type Edition } from "../catalog/editions.js";
import { buildComplianceMatrix, type ComplianceMatrix, type RunInfo } from "./compliance-matrix.js";
import type { DocumentationMap } from "./documentation-map.js";
import { renderDocumentationHtml } from "./render-documentation-html.js";
import { renderHtml } from "./render-html.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderScenariosHtml } from "./render-scenarios-html.js";
import { collectScenarioResults, parseMessageStream, type ScenarioResult } from "./scenario-results.js";
import { loadFeatureScenarioCache, readFeatureScenarios, scenarioKey, stepsFromMessages, type ScenarioStep } from "./scenario-steps.js";
import { readRuleTexts, renderSpecHtml } from "./spec-document.js";

/**
 * The kit's docs folder (SPEC.md, editions/): the nearest docs/ above this module. Two levels up in the kit and
 * in the repository's sources; three from the repository's build in dist/, which the repository's kit runs while
 * it is fresh (two levels up, dist/docs, does not exist: the report said every edition was missing).
 */
const DOCS_DIR = findDocsDir(dirname(fileURLToPath(import.meta.url)));

function findDocsDir(start: string): string {
  for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, "docs/SPEC.md"))) return join(dir, "docs");
  }
  return join(start, "../../docs");
}

export interface ComplianceReportOptions {
  /** Default: conformance/catalog/rules.json. */
  rules?: readonly RuleEntry[];
  /** The directory cucumber ran in; pickle uris are relative to it. */
  cwd: string;
  /** The kit's features directory; its scenarios missing from the stream are reported as not run. */
  featuresDir?: string;
  tagExpression?: string;
  /** Recorded in the matrix, so that `compare` can name the run's column. */
  adapterName?: string;
  /** The run was narrowed by --tags or --paths (see RunInfo.partial). */
  partial?: boolean;
  now?: Date;
  /** Known divergences by rule id (`--divergences`). */
  divergences?: Readonly<Record<string, string>>;
  /** `--edition`: what level Documented stands for (default: the newest edition). */
  edition?: Edition;
  /** Holds SPEC.md and the editions of the documentation. Default: the kit's docs folder. */
  docsDir?: string;
  /** Default: conformance/catalog/documentation-map.json. */
  documentationMap?: DocumentationMap;
}

export interface ComplianceReportFiles {
  markdownPath: string;
  htmlPath: string;
  jsonPath: string;
  specPath: string;
  scenariosPath: string;
  documentationPath: string;
  matrix: ComplianceMatrix;
}

export function writeComplianceReport(reportDir: string, options: ComplianceReportOptions): ComplianceReportFiles {
  const envelopes = parseMessageStream(readFileSync(join(reportDir, "messages.ndjson"), "utf8"));
  const scenarios = collectScenarioResults(envelopes);
  const steps = stepsFromMessages(envelopes);
  const rules = options.rules ?? (catalog as RuleEntry[]);
  const unloadedScenarios = options.featuresDir ? readUnloadedScenarios(options.featuresDir, options.cwd, scenarios, steps) : [];
  const edition = options.edition ?? NEWEST_EDITION;
  const matrix = buildComplianceMatrix({ rules, scenarios, unloadedScenarios, divergences: options.divergences ?? {}, edition });
  const run: RunInfo = { generatedAt: (options.now ?? new Date()).toISOString(), edition: edition.label };
  if (options.tagExpression) run.tagExpression = options.tagExpression;
  run.passedOnlyOnRetry = scenarios.filter((scenario) => scenario.passedOnRetry).length;
  if (options.adapterName) run.adapterName = options.adapterName;
  if (options.partial) run.partial = true;
  matrix.run = run;
  const files = {
    markdownPath: join(reportDir, "compliance.md"),
    htmlPath: join(reportDir, "compliance.html"),
    jsonPath: join(reportDir, "compliance.json"),
    specPath: join(reportDir, "spec.html"),
    scenariosPath: join(reportDir, "scenarios.html"),
    documentationPath: join(reportDir, "documentation.html"),
  };
  writeFileSync(files.markdownPath, renderMarkdown(matrix));
  writeFileSync(files.htmlPath, renderHtml(matrix));
  writeFileSync(files.jsonPath, `${JSON.stringify(matrix, null, 1)}\n`);
  const docsDir = options.docsDir ?? DOCS_DIR;
  const spec = readIfPresent(join(docsDir, "SPEC.md")) ?? "# Specification\n\nSPEC.md is missing from this kit.\n";
  writeFileSync(files.specPath, renderSpecHtml(spec));
  writeFileSync(files.scenariosPath, renderScenariosHtml([...scenarios, ...unloadedScenarios], steps));
  const map = options.documentationMap ?? (documentationMap as DocumentationMap);
  const editionTexts = Object.fromEntries(map.editions.flatMap((edition) => {
    const text = readIfPresent(join(docsDir, edition.file));
    return text === undefined ? [] : [[edition.id, text]];
  }));
  writeFileSync(files.documentationPath, renderDocumentationHtml({ map, editionTexts, matrix, ruleTexts: readRuleTexts(spec), steps }));
  return { ...files, matrix };
}

function readIfPresent(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/**
 * Scenarios of feature files that the run did not load at all (e.g. `--paths` named other files); their steps are
 * added to `steps`.
 */
function readUnloadedScenarios(featuresDir: string, cwd: string, loaded: readonly ScenarioResult[], steps: Map<string, ScenarioStep[]>): ScenarioResult[] {
  if (!existsSync(featuresDir)) return [];
  const loadedUris = new Set(loaded.map((scenario) => scenario.uri));
  const uriOf = (file: string): string => relative(cwd, join(featuresDir, file));
  return readFeatureScenarios(featuresDir, (file) => !loadedUris.has(uriOf(file)), loadFeatureScenarioCache()).map((scenario): ScenarioResult => {
    const uri = uriOf(scenario.uri);
    steps.set(scenarioKey({ uri, line: scenario.line }), scenario.steps);
    return { uri, name: scenario.name, line: scenario.line, tags: scenario.tags, status: "not run" };
  });
}
