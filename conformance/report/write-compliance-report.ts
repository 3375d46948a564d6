// Writes compliance.md, compliance.html and compliance.json next to the messages.ndjson of a finished run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import catalog from "../catalog/rules.json" with { type: "json" };
import { readScenarioTags } from "../catalog/feature-tags.js";
import type { RuleEntry } from "../catalog/spec-rules.js";
import { NEWEST_EDITION, type Edition } from "../catalog/editions.js";
import { buildComplianceMatrix, type ComplianceMatrix, type RunInfo } from "./compliance-matrix.js";
import { renderHtml } from "./render-html.js";
import { renderMarkdown } from "./render-markdown.js";
import { collectScenarioResults, parseMessageStream, type ScenarioResult } from "./scenario-results.js";

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
}

export interface ComplianceReportFiles {
  markdownPath: string;
  htmlPath: string;
  jsonPath: string;
  matrix: ComplianceMatrix;
}

export function writeComplianceReport(reportDir: string, options: ComplianceReportOptions): ComplianceReportFiles {
  const envelopes = parseMessageStream(readFileSync(join(reportDir, "messages.ndjson"), "utf8"));
  const scenarios = collectScenarioResults(envelopes);
  const rules = options.rules ?? (catalog as RuleEntry[]);
  const unloadedScenarios = options.featuresDir ? readUnloadedScenarios(options.featuresDir, options.cwd, scenarios) : [];
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
  };
  writeFileSync(files.markdownPath, renderMarkdown(matrix));
  writeFileSync(files.htmlPath, renderHtml(matrix));
  writeFileSync(files.jsonPath, `${JSON.stringify(matrix, null, 1)}\n`);
  return { ...files, matrix };
}

/** Scenarios of feature files that the run did not load at all (e.g. `--paths` named other files). */
function readUnloadedScenarios(featuresDir: string, cwd: string, loaded: readonly ScenarioResult[]): ScenarioResult[] {
  if (!existsSync(featuresDir)) return [];
  const loadedUris = new Set(loaded.map((scenario) => scenario.uri));
  return readScenarioTags(featuresDir)
    .map(({ uri, name, tags }) => ({ uri: relative(cwd, join(featuresDir, uri)), name, tags, status: "not run" as const }))
    .filter((scenario) => !loadedUris.has(scenario.uri));
}
