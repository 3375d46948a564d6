// The wording shared by compliance.md, compliance.html and the CLI line: verdict marks, the level sentence and
// links into cucumber.html.
import type { ComplianceMatrix, MatrixRow, RuleVerdict, ScenarioLink } from "./compliance-matrix.js";
import type { ScenarioStatus } from "./scenario-results.js";

export const VERDICT_MARKS: Record<RuleVerdict, string> = {
  passed: "✅",
  failed: "❌",
  diverges: "⚠️",
  skipped: "⏭️",
  "not applicable": "➖",
  "not run": "⏸️",
  "no scenario": "∅",
  "not in this edition": "▫️",
};

/** How each verdict reads in the tables. */
export const VERDICT_LABELS: Record<RuleVerdict, string> = {
  passed: "passed",
  failed: "failed",
  diverges: "diverges (explained)",
  skipped: "skipped",
  "not applicable": "not applicable (capability missing)",
  "not run": "not run (not selected)",
  "no scenario": "no scenario",
  "not in this edition": "not in this edition (not counted)",
};

export function scenarioStatusLabel(link: Pick<ScenarioLink, "status" | "cucumberStatus" | "capabilities">): string {
  const status: ScenarioStatus = link.status;
  if (status === "not applicable" && link.capabilities?.length) return notApplicableLabel(link.capabilities);
  if (status === "failed" && link.cucumberStatus && link.cucumberStatus !== "FAILED") {
    return `failed (${link.cucumberStatus === "UNKNOWN" ? "did not finish" : link.cucumberStatus.toLowerCase()})`;
  }
  return status;
}

/** A rule's verdict in words; not applicable names the capabilities its scenarios need. */
export function ruleVerdictLabel(row: Pick<MatrixRow, "verdict" | "scenarios">): string {
  if (row.verdict !== "not applicable") return VERDICT_LABELS[row.verdict];
  const capabilities = row.scenarios.filter((link) => link.status === "not applicable").flatMap((link) => link.capabilities ?? []);
  return capabilities.length ? notApplicableLabel(capabilities) : VERDICT_LABELS[row.verdict];
}

/** "not applicable (capability pty missing)": the adapter lacks the capability of a tag such as `@pty`. */
export function notApplicableLabel(capabilityTags: readonly string[]): string {
  const names = [...new Set(capabilityTags.map((tag) => tag.replace(/^@/, "")))];
  return `not applicable (capability ${names.join(" or ")} missing)`;
}

/** `features/poll.feature:42`, or the file alone when the line is unknown. */
export function scenarioLocation(link: Pick<ScenarioLink, "uri" | "line">): string {
  return link.line === undefined ? link.uri : `${link.uri}:${link.line}`;
}

/**
 * A link into cucumber.html. Its search box takes its value from `?query=`; a tag expression such as `@POLL-14`
 * filters the report to that rule's scenarios, and `#<scenario node id>` is the id of the scenario's heading.
 */
export function cucumberReportLink(ruleId: string, astNodeId?: string): string {
  return `cucumber.html?query=${encodeURIComponent(`@${ruleId}`)}${astNodeId ? `#${encodeURIComponent(astNodeId)}` : ""}`;
}

/** A rule's row in compliance.html, which links to its SPEC text and to each of its scenarios, expanded. */
export const ruleInMatrixLink = (ruleId: string): string => `compliance.html#${ruleId}`;

/** True when the scenario ran, so cucumber.html shows it (scenarios that did not run are not in that report). */
export function isInCucumberReport(link: Pick<ScenarioLink, "status">): boolean {
  return link.status !== "not run";
}

/** "Documented", "Reference (3 rules not applicable: capability missing)", "none". */
export function levelSentence(matrix: Pick<ComplianceMatrix, "level" | "notApplicableInLevel" | "edition">): string {
  const { notApplicableInLevel: count } = matrix;
  const level = matrix.edition && matrix.level === "Documented" ? `Documented (edition ${matrix.edition})` : matrix.level;
  if (level === "none" || count === 0) return level;
  return `${level} (${count} ${count === 1 ? "rule" : "rules"} not applicable: capability missing)`;
}

/** Rules the run selected: at least one of their deciding scenarios ran, and the run's edition states them. */
export function selectedRuleCount(matrix: Pick<ComplianceMatrix, "rows">): number {
  const unselected: readonly RuleVerdict[] = ["not run", "no scenario", "not in this edition"];
  return matrix.rows.filter((row) => !unselected.includes(row.verdict)).length;
}

/** The headline: "Level reached: Reference", or for a run narrowed by --tags/--paths "Partial run: 12 of 300 rules selected". */
export function headlineSentence(matrix: Pick<ComplianceMatrix, "run" | "rows" | "level" | "notApplicableInLevel" | "edition">): string {
  if (matrix.run?.partial) return `Partial run: ${selectedRuleCount(matrix)} of ${matrix.rows.length} rules selected`;
  return `Level reached: ${levelSentence(matrix)}`;
}

/**
 * What keeps the next level from being reached. Rules that were not run were not selected (a run at level Documented
 * does not select the legacy-doc rules): they leave the level unassessed, and never read as blocking it.
 * "Reference is not reached; rules blocking it: 2 failed (and 7 not selected)."
 * "Documented + compatibility was not assessed: 7 of its rules were not selected by this run."
 */
export function nextLevelSentence(matrix: Pick<ComplianceMatrix, "nextLevel">): string | undefined {
  const next = matrix.nextLevel;
  if (!next) return undefined;
  const { "not run": notSelected = 0, ...blocking } = next.blockedBy;
  const parts = Object.entries(blocking).map(([verdict, count]) => `${count} ${verdict}`);
  const unselected = notSelected === 0 ? "" : `${notSelected} ${notSelected === 1 ? "rule" : "rules"} not selected`;
  if (parts.length > 0) return `${next.name} is not reached; rules blocking it: ${parts.join(", ")}${unselected ? ` (and ${unselected})` : ""}.`;
  if (notSelected > 0) {
    return `${next.name} was not assessed: ${notSelected} of its rules ${notSelected === 1 ? "was" : "were"} not selected by this run (see --level).`;
  }
  return `${next.name} is not reached: none of its rules passed.`;
}
