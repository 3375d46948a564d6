// `--edition` (issues 23 and 35): level Documented of an older documentation edition counts exactly the rules that
// edition states (test/conformance/edition-rules.test.ts derives them), and the kit speaks its names.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentedTagExpression, findEdition, isDocumentedIn, isNotInEdition, renameKeys } from "../../conformance/catalog/editions.js";
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { buildComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import type { ScenarioResult } from "../../conformance/report/scenario-results.js";
import { headlineSentence } from "../../conformance/report/report-text.js";
import { renderChapterSummary } from "../../conformance/report/chapter-summary.js";

const ROOT = new URL("../..", import.meta.url).pathname;

function rule(id: string, profile: RuleEntry["profile"]): RuleEntry {
  return { id, prefix: id.split("-")[0] ?? "", profile, chapter: "1. Settings", section: "1.1", summary: id };
}
function scenario(id: string, profile: string, status: ScenarioResult["status"]): ScenarioResult {
  return { uri: "features/settings.feature", name: `${id} ${status}`, tags: [`@${id}`, `@${profile}`], status };
}

describe("the editions catalog", () => {
  it("counts the doc rules for the newest edition, and for an older one the rules that it states", () => {
    const [newest, ja, sv] = [findEdition("newest"), findEdition("ja"), findEdition("sv")];
    expect(isDocumentedIn(newest, rule("SET-09", "doc"))).toBe(true);
    expect(isDocumentedIn(newest, rule("SET-06", "legacy-doc"))).toBe(false);
    expect(isDocumentedIn(ja, rule("SET-06", "legacy-doc"))).toBe(true);
    expect(isDocumentedIn(ja, rule("SET-09", "doc"))).toBe(false);
    expect(isDocumentedIn(ja, rule("LOG-06", "legacy-doc"))).toBe(false);
    expect(isDocumentedIn(sv, rule("LOG-06", "legacy-doc"))).toBe(true);
    expect(isDocumentedIn(ja, rule("PROC-01", "doc"))).toBe(true);
    expect(isDocumentedIn(sv, rule("PROC-01", "doc"))).toBe(false);
    expect(isDocumentedIn(sv, rule("SET-07", "upstream"))).toBe(false);
    expect(isNotInEdition(sv, rule("PROC-01", "doc"))).toBe(true);
    expect(isNotInEdition(sv, rule("SET-07", "upstream"))).toBe(false);
    expect(isNotInEdition(newest, rule("SET-06", "legacy-doc"))).toBe(false);
  });

  it("selects the scenarios whose rules the edition all states, and speaks its names", () => {
    expect(documentedTagExpression(findEdition("newest"))).toBe("@doc");
    const ja = documentedTagExpression(findEdition("ja"));
    expect(ja).toMatch(/^\(@doc or @legacy-doc\) and not @both-names and not \(@/);
    expect(ja).toMatch(/@EXEC-04\b/);
    expect(ja).toMatch(/@POLL-07\b/);
    expect(ja).not.toMatch(/@SET-06\b/);
    expect(ja).not.toMatch(/@PROC-01\b/);
    expect(documentedTagExpression(findEdition("sv"))).toMatch(/@PROC-01\b/);
    expect(renameKeys({ command: "sleep 5", timeoutSeconds: 1 }, findEdition("ja").names.args)).toEqual({ command: "sleep 5", timeout: 1 });
    expect(() => findEdition("fr")).toThrow(/--edition must be one of newest, ja, sv, tl \(got "fr"\)/);
  });
});

describe("level Documented with an edition", () => {
  const catalogRules = [rule("SET-06", "legacy-doc"), rule("SET-09", "doc"), rule("SET-11", "doc"), rule("SET-07", "upstream"), rule("SET-19", "doc")];
  // An implementation of the Japanese page: the PI_BASH_* alias works, the newest name does not, and nor does the
  // pending cap's default, which no older page states.
  const scenarios = [
    scenario("SET-06", "legacy-doc", "passed"), scenario("SET-09", "doc", "failed"), scenario("SET-11", "doc", "failed"),
    scenario("SET-19", "doc", "passed"),
  ];

  it("is not reached for the newest edition when a rule of its names fails", () => {
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios });
    expect(matrix.level).toBe("none");
    expect(matrix.nextLevel).toEqual({ name: "Documented", blockedBy: { failed: 2 } });
  });

  it("is reached for the older edition, whose rules passed; the others are not in this edition", () => {
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios, edition: findEdition("ja") });
    expect(matrix.level).toBe("Documented");
    expect(matrix.nextLevel).toBeUndefined();
    expect(matrix.edition).toBe("ja, older");
    expect(headlineSentence(matrix)).toBe("Level reached: Documented (edition ja, older)");
    expect(Object.fromEntries(matrix.rows.map((row) => [row.id, row.verdict]))).toEqual({
      "SET-06": "passed", "SET-09": "not in this edition", "SET-11": "not in this edition", "SET-07": "no scenario", "SET-19": "passed",
    });
    expect(matrix.counts.all["not in this edition"]).toBe(2);
    // A rule that the edition does not state was not selected by a narrowed run either.
    expect(headlineSentence({ ...matrix, run: { generatedAt: "", partial: true } })).toBe("Partial run: 2 of 5 rules selected");
  });

  it("adds the verdict's column to the console's table only when a rule has it", () => {
    const header = (matrix: ReturnType<typeof buildComplianceMatrix>): string => renderChapterSummary(matrix).split("\n")[0] ?? "";
    expect(header(buildComplianceMatrix({ rules: catalogRules, scenarios, edition: findEdition("ja") }))).toMatch(/ no scenario +not in this edition$/);
    expect(header(buildComplianceMatrix({ rules: catalogRules, scenarios }))).toMatch(/ no scenario$/);
  });

  it("still needs the edition's own rules to pass", () => {
    const failing = [scenario("SET-06", "legacy-doc", "failed"), scenario("SET-19", "doc", "passed")];
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios: failing, edition: findEdition("ja") });
    expect(matrix.level).toBe("none");
    expect(matrix.nextLevel).toEqual({ name: "Documented", blockedBy: { failed: 1 } });
  });
});

function runKit(args: string[]): Promise<{ exitCode: number | null; level: string; failed: string[]; edition: string; verdicts: Record<string, string> }> {
  const report = mkdtempSync(join(tmpdir(), "edition-"));
  const command = `"${process.execPath}" "${join(ROOT, "conformance/fixtures/faulty/older-names-only.mjs")}"`;
  const kitArgs = ["conformance/bin.mjs", "--parallel", "2", "--reuse", "--command", command, "--level", "documented", "--report", report, ...args];
  return new Promise((resolve, reject) => {
    const kit = spawn(process.execPath, kitArgs, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    kit.once("error", reject);
    kit.once("exit", (exitCode) => {
      try {
        const matrix = JSON.parse(readFileSync(join(report, "compliance.json"), "utf8")) as {
          rows: Array<{ id: string; verdict: string }>; level: string; run: { edition: string };
        };
        resolve({
          exitCode, level: matrix.level, edition: matrix.run.edition, failed: matrix.rows.filter((row) => row.verdict === "failed").map((row) => row.id),
          verdicts: Object.fromEntries(matrix.rows.map((row) => [row.id, row.verdict])),
        });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(report, { recursive: true, force: true });
      }
    });
  });
}

describe.concurrent("an implementation of the older editions' names only", () => {
  const tags = ["--tags", "(@SET-06 or @SET-09 or @EXEC-04 or @RES-13) and not @slow"];
  it("fails the newest edition's rules that name timeoutSeconds and OPENCLAW_BASH_YIELD_MS", async () => {
    const run = await runKit(tags);
    expect(run.exitCode).toBe(1);
    expect(run.edition).toBe("newest");
    expect(run.failed).toEqual(expect.arrayContaining(["SET-09", "RES-13"]));
  }, 240_000);

  it("passes under --edition ja, where the kit speaks PI_BASH_YIELD_MS, and shows the rules the page does not state", async () => {
    const run = await runKit([...tags, "--edition", "ja"]);
    expect(run.failed).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.edition).toBe("ja, older");
    expect(run.verdicts["SET-06"]).toBe("passed");
    // SET-09's clamp, EXEC-04's "0 disables" and RES-13's timed-out result are not on the Japanese page.
    expect([run.verdicts["SET-09"], run.verdicts["EXEC-04"], run.verdicts["RES-13"]]).toEqual(["not in this edition", "not in this edition", "not in this edition"]);
  }, 240_000);
});
