// The benchmark report: a plain-text table for the terminal and the JSON document for reports/bench.json.
import type { RowResult, Target } from "./bench-kit.js";
import { round } from "./stats.js";

export interface RowFailure {
  id: string;
  error: string;
}

const fmt = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value) ? "—" : String(round(value));

/** Scalar extras as `key=value`; summaries as their median. */
function formatExtras(extra: Record<string, unknown>): string {
  return Object.entries(extra).flatMap(([key, value]) => {
    if (typeof value === "number") return [`${key}=${fmt(value)}`];
    if (value && typeof value === "object" && "median" in value) return [`${key}.median=${fmt((value as { median: number }).median)}`];
    if (typeof value === "boolean" || (typeof value === "string" && value.length <= 40)) return [`${key}=${value}`];
    return [];
  }).join(", ");
}

const formatTarget = (t: Target): string => `${t.name}: ${fmt(t.actual)} ${t.met ? "met" : "MISSED"}`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

export function formatReport(results: readonly RowResult[], failures: readonly RowFailure[]): string {
  const main = table(
    ["#", "benchmark", "metric", "n", "median", "p95", "baseline", "base median", "base p95", "ratio"],
    results.map((r, i) => [
      String(i + 1), r.title, `${r.metric} (${r.unit})`, String(r.engine.n), fmt(r.engine.median), fmt(r.engine.p95),
      r.baseline?.label ?? "—", fmt(r.baseline?.median), fmt(r.baseline?.p95), fmt(r.ratio),
    ]),
  );
  const targets = table(
    ["#", "benchmark", "targets"],
    results.map((r, i) => [String(i + 1), r.title, r.targets.map(formatTarget).join("; ") || "reported only"]),
  );
  const details = results.map((r, i) => `${i + 1}. ${formatExtras(r.extra)}${r.notes.length > 0 ? `\n   ${r.notes.join("\n   ")}` : ""}`);
  const failed = failures.map((failure) => `row ${failure.id} failed: ${failure.error}`);
  return [main, "", targets, "", ...details, ...failed, "", summarizeTargets(results)].join("\n");
}

/** One closing line: how many targets were met, and which were missed. */
function summarizeTargets(results: readonly RowResult[]): string {
  const all = results.flatMap((r) => r.targets.map((t) => ({ row: r.id, ...t })));
  const missed = all.filter((t) => !t.met).map((t) => `${t.row} ${t.name} (${fmt(t.actual)})`);
  const met = `targets: ${all.length - missed.length} of ${all.length} met`;
  return missed.length > 0 ? `${met}; missed: ${missed.join(", ")}` : met;
}

export function buildJsonReport(results: readonly RowResult[], failures: readonly RowFailure[], machine: object): object {
  const allTargets = results.flatMap((r) => r.targets);
  return {
    generatedAt: new Date().toISOString(),
    machine,
    summary: {
      rows: results.length, failedRows: failures.length,
      targets: allTargets.length, targetsMet: allTargets.filter((t) => t.met).length,
    },
    rows: results,
    failures,
  };
}
