// `compare`: several runs side by side — verdicts per rule and implementation, disagreements among the runs that
// selected a rule, chapter totals, and the HTML/Markdown renderings (badges as text, no emoji).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findEdition } from "../../conformance/catalog/editions.js";
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { main } from "../../conformance/cli.js";
import { buildComplianceMatrix, type ComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import { ALL_RULES, compareRuns } from "../../conformance/report/compare-runs.js";
import { renderComparisonHtml } from "../../conformance/report/render-compare-html.js";
import { renderComparisonMarkdown } from "../../conformance/report/render-compare-markdown.js";
import { renderHtml } from "../../conformance/report/render-html.js";
import { VERDICT_MARKS } from "../../conformance/report/report-text.js";
import type { ScenarioStatus } from "../../conformance/report/scenario-results.js";

const RULES: RuleEntry[] = [
  { id: "LIST-01", prefix: "LIST", profile: "doc", chapter: "7. `process` actions", section: "7.2 `list`", summary: "list shows sessions." },
  { id: "LIST-02", prefix: "LIST", profile: "upstream", chapter: "7. `process` actions", section: "7.2 `list`", summary: "Newest first." },
  { id: "RES-05", prefix: "RES", profile: "upstream", chapter: "4. `exec` results", section: "4.2", summary: "`(no output)`." },
  { id: "RES-06", prefix: "RES", profile: "doc", chapter: "4. `exec` results", section: "4.2", summary: "Not selected." },
];

/** A matrix whose rule i has the i-th status (one scenario each); "not run" leaves the rule unselected. */
function matrixOf(adapterName: string | undefined, statuses: ScenarioStatus[]): ComplianceMatrix {
  const scenarios = RULES.map((rule, index) => ({ name: `s${index}`, uri: "f.feature", tags: [`@${rule.id}`, `@${rule.profile}`], status: statuses[index] ?? "not run" }));
  const matrix = buildComplianceMatrix({ rules: RULES, scenarios });
  matrix.run = { generatedAt: "1970-01-01T00:00:00.000Z", partial: true, ...(adapterName ? { adapterName } : {}) };
  return matrix;
}

const reference = matrixOf("reference", ["passed", "passed", "passed", "not run"]);
const faulty = matrixOf("stdio: faulty", ["passed", "failed", "passed", "not run"]);
const partial = matrixOf(undefined, ["passed", "not run", "skipped", "not run"]);

describe("compareRuns", () => {
  const comparison = compareRuns([
    { matrix: reference, href: "../ref", fallbackName: "ref" },
    { matrix: faulty, href: "../faulty", fallbackName: "faulty" },
    { matrix: partial, href: "../partial", fallbackName: "partial-dir" },
  ]);

  it("does not count a rule that a run's edition does not state as a disagreement", () => {
    const swedish = buildComplianceMatrix({ rules: RULES, scenarios: [], edition: findEdition("sv") });
    expect(swedish.rows.find((row) => row.id === "RES-06")?.verdict).toBe("not in this edition");
    const withEdition = compareRuns([
      { matrix: reference, href: "../ref", fallbackName: "ref" }, { matrix: swedish, href: "../sv", fallbackName: "sv" },
    ]);
    expect(withEdition.rows.find((row) => row.id === "RES-06")).toMatchObject({ verdicts: ["not run", "not in this edition"], disagree: false });
    const ranHere = compareRuns([
      { matrix: matrixOf("ref", ["passed", "passed", "passed", "passed"]), href: "../ref", fallbackName: "ref" },
      { matrix: swedish, href: "../sv", fallbackName: "sv" },
    ]);
    expect(ranHere.rows.find((row) => row.id === "RES-06")).toMatchObject({ verdicts: ["passed", "not in this edition"], disagree: false });
  });

  it("has a column per run named from the adapter name, or the directory when the run recorded none", () => {
    expect(comparison.runs.map((run) => run.name)).toEqual(["reference", "stdio: faulty", "partial-dir"]);
    expect(comparison.runs[0]?.headline).toBe("Partial run: 3 of 4 rules selected");
  });

  it("marks a rule as disagreeing only when the runs that selected it reached different verdicts", () => {
    const byId = Object.fromEntries(comparison.rows.map((row) => [row.id, row]));
    expect(byId["LIST-01"]).toMatchObject({ verdicts: ["passed", "passed", "passed"], disagree: false });
    expect(byId["LIST-02"]).toMatchObject({ verdicts: ["passed", "failed", "not run"], disagree: true });
    expect(byId["RES-05"]).toMatchObject({ verdicts: ["passed", "passed", "skipped"], disagree: true });
    expect(byId["RES-06"]).toMatchObject({ verdicts: ["not run", "not run", "not run"], disagree: false });
    expect(comparison.disagreements).toBe(2);
  });

  it("totals the verdicts per chapter and over all rules for each run", () => {
    const totals = Object.fromEntries(comparison.totals.map((entry) => [entry.chapter, entry.counts]));
    expect(comparison.totals.map((entry) => entry.chapter)).toEqual(["7. `process` actions", "4. `exec` results", ALL_RULES]);
    expect(totals["7. `process` actions"]?.[1]).toMatchObject({ rules: 2, passed: 1, failed: 1 });
    expect(totals[ALL_RULES]?.[2]).toMatchObject({ rules: 4, passed: 1, skipped: 1, "not run": 2 });
  });

  it("titles a column with the name given for it (compare --name) instead of the adapter's name", () => {
    const named = compareRuns([
      { matrix: reference, href: "../ref", fallbackName: "ref" },
      { matrix: faulty, href: "../faulty", fallbackName: "faulty", name: "Python starter" },
    ]);
    expect(named.runs.map((run) => run.name)).toEqual(["reference", "Python starter"]);
  });

  it("appends the directory to a name that several runs share", () => {
    const twice = compareRuns([{ matrix: reference, href: "../a", fallbackName: "a" }, { matrix: reference, href: "../b", fallbackName: "b" }]);
    expect(twice.runs.map((run) => run.name)).toEqual(["reference (../a)", "reference (../b)"]);
  });

  it("renders HTML with a bar per run and chapter, a disagreement filter and links into each run's scenario report", () => {
    const html = renderComparisonHtml(comparison);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<(?:link|script|img)[^>]+(?:src|href)=/);
    expect(html.match(/<svg /g)).toHaveLength(3 * 3); // 2 chapters + all rules, 3 runs
    expect(html).toContain('aria-label="1/2 passed, 1 failed"');
    expect(html).toContain('<input type="checkbox" id="only-disagreements"> Show only rules where the implementations disagree (2)');
    expect(html).toContain('<tr id="LIST-02" class="rule disagree"><td class="id"><a href="../ref/spec.html#LIST-02">LIST-02</a></td>');
    expect(html).toContain('<a href="../faulty/compliance.html#LIST-02"><span class="v v-failed">failed</span></a>');
    expect(html).toContain('<a href="../ref/cucumber.html">scenario report</a>');
  });

  it("renders Markdown with the disagreeing rules first, verdicts as words", () => {
    const markdown = renderComparisonMarkdown(comparison);
    expect(markdown).toContain("## Rules where the implementations disagree\n\n| Rule | Profile | reference | stdio: faulty | partial-dir |\n|---|---|---|---|---|\n"
      + "| **[LIST-02](../ref/spec.html#LIST-02)** | upstream | [passed](../ref/compliance.html#LIST-02) | [**failed**](../faulty/compliance.html#LIST-02) | not run |");
    expect(markdown).toContain("| 7. `process` actions | 2/2 passed | 1/2 passed (1 failed) | 1/2 passed (1 not run) |");
  });

  it("uses no emoji in the HTML of either report, so the badges read without an emoji font", () => {
    for (const html of [renderComparisonHtml(comparison), renderHtml(reference)]) {
      for (const mark of Object.values(VERDICT_MARKS)) expect(html).not.toContain(mark);
    }
    expect(renderHtml(reference)).toContain('<span class="v v-passed">passed</span>');
  });
});

describe("exec-process-conformance compare", () => {
  let dir = "";
  const printed: string[] = [];
  const errors: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "compare-test-"));
    for (const [name, matrix] of [["ref", reference], ["faulty", faulty]] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "compliance.json"), JSON.stringify(matrix));
    }
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
  });
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes comparison.html and comparison.md with links relative to the output directory", async () => {
    expect(await main(["compare", join(dir, "ref"), join(dir, "faulty"), "--out", join(dir, "out")])).toBe(0);
    expect(printed.at(-1)).toBe(`Comparison of 2 runs: ${join(dir, "out/comparison.html")} and ${join(dir, "out/comparison.md")} (1 rule where they disagree)`);
    expect(readFileSync(join(dir, "out/comparison.md"), "utf8")).toContain("[compliance matrix](../faulty/compliance.md)");
  });

  it("titles the columns with --name, one per report directory in order", async () => {
    expect(await main(["compare", join(dir, "ref"), join(dir, "faulty"), "--out", join(dir, "named"), "--name", "Reference", "--name", "Faulty (stdio)"])).toBe(0);
    expect(readFileSync(join(dir, "named/comparison.md"), "utf8")).toContain("| Rule | Profile | Reference | Faulty (stdio) |");
    expect(readFileSync(join(dir, "named/comparison.html"), "utf8")).toContain('<th class="run" title="Faulty (stdio)">Faulty (stdio)</th>');
  });

  it.each([
    [["compare", "a", "b", "--out", "x", "--name", "only one"], "compare got 1 --name for 2 report directories: give one --name per directory, in the same order."],
    [["compare", "only-one", "--out", "x"], "compare takes two or more report directories (got 1)."],
    [["compare", "a", "b"], "compare needs --out <dir>: where to write comparison.html and comparison.md."],
  ])("refuses %j with exit code 2 and a clear text", async (argv, text) => {
    expect(await main(argv)).toBe(2);
    expect(errors.at(-1)).toContain(text);
  });

  it("refuses a directory without compliance.json, naming it", async () => {
    expect(await main(["compare", join(dir, "ref"), join(dir, "missing"), "--out", join(dir, "out2")])).toBe(2);
    expect(errors.at(-1)).toBe(`${join(dir, "missing")} holds no compliance.json: give the --report directory of a kit run.`);
  });
});
