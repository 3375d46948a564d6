// Reads compliance.json of each report directory and writes comparison.html and comparison.md to the output.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { ComplianceMatrix } from "./compliance-matrix.js";
import { compareRuns, type Comparison } from "./compare-runs.js";
import { renderComparisonHtml } from "./render-compare-html.js";
import { renderComparisonMarkdown } from "./render-compare-markdown.js";

export interface ComparisonFiles {
  htmlPath: string;
  markdownPath: string;
  comparison: Comparison;
}

/** `names`, when given, title the runs' columns in order (one per report directory). */
export function writeComparison(reportDirs: readonly string[], outDir: string, names: readonly string[] = []): ComparisonFiles {
  if (names.length > 0 && names.length !== reportDirs.length) {
    throw new Error(`compare got ${names.length} --name for ${reportDirs.length} report directories: give one --name per directory, in the same order.`);
  }
  const out = resolve(outDir);
  const runs = reportDirs.map((dir, index) => {
    const path = join(resolve(dir), "compliance.json");
    if (!existsSync(path)) throw new Error(`${dir} holds no compliance.json: give the --report directory of a kit run.`);
    const matrix = JSON.parse(readFileSync(path, "utf8")) as ComplianceMatrix;
    if (matrix.schemaVersion !== 1 || !Array.isArray(matrix.rows)) throw new Error(`${path} is not a compliance matrix of this kit (schemaVersion 1).`);
    const name = names[index];
    return { matrix, href: relative(out, resolve(dir)).split("\\").join("/") || ".", fallbackName: basename(resolve(dir)), ...(name ? { name } : {}) };
  });
  const comparison = compareRuns(runs);
  mkdirSync(out, { recursive: true });
  const files = { htmlPath: join(out, "comparison.html"), markdownPath: join(out, "comparison.md") };
  writeFileSync(files.htmlPath, renderComparisonHtml(comparison));
  writeFileSync(files.markdownPath, renderComparisonMarkdown(comparison));
  return { ...files, comparison };
}
