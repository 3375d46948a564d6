// `--edition` (issue 23): level Documented of an older documentation edition, whose legacy-doc rules replace the
// doc rules they supersede and whose names the kit speaks.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EDITIONS, documentedTagExpression, findEdition, isDocumentedIn, renameKeys } from "../../conformance/catalog/editions.js";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { buildComplianceMatrix } from "../../conformance/report/compliance-matrix.js";
import type { ScenarioResult } from "../../conformance/report/scenario-results.js";
import { headlineSentence } from "../../conformance/report/report-text.js";

const rules = catalog as RuleEntry[];
const ROOT = new URL("../..", import.meta.url).pathname;

function rule(id: string, profile: RuleEntry["profile"]): RuleEntry {
  return { id, prefix: id.split("-")[0] ?? "", profile, chapter: "1. Settings", section: "1.1", summary: id };
}
function scenario(id: string, profile: string, status: ScenarioResult["status"]): ScenarioResult {
  return { uri: "features/settings.feature", name: `${id} ${status}`, tags: [`@${id}`, `@${profile}`], status };
}

describe("the editions catalog", () => {
  it("supersedes only doc rules with legacy-doc rules, all of them in SPEC.md", () => {
    const byId = new Map(rules.map((entry) => [entry.id, entry]));
    for (const edition of EDITIONS) {
      for (const [legacy, superseded] of Object.entries(edition.supersedes)) {
        expect(byId.get(legacy)?.profile, `${edition.id}: ${legacy}`).toBe("legacy-doc");
        for (const id of superseded) expect(byId.get(id)?.profile, `${edition.id}: ${id}`).toBe("doc");
      }
    }
  });

  it("counts the Japanese page's rules in place of the newest names' rules", () => {
    const ja = findEdition("ja");
    expect(isDocumentedIn(ja, rule("SET-06", "legacy-doc"))).toBe(true);
    expect(isDocumentedIn(ja, rule("SET-09", "doc"))).toBe(false);
    expect(isDocumentedIn(ja, rule("LOG-06", "legacy-doc"))).toBe(false);
    expect(isDocumentedIn(findEdition("sv"), rule("LOG-06", "legacy-doc"))).toBe(true);
    expect(isDocumentedIn(findEdition("newest"), rule("SET-06", "legacy-doc"))).toBe(false);
  });

  it("selects the edition's scenarios and speaks its names", () => {
    expect(documentedTagExpression(findEdition("newest"))).toBe("@doc");
    expect(documentedTagExpression(findEdition("ja"))).toContain("@legacy-doc and (@EXEC-04 or @LC-11 or @SET-06 or @SET-18)");
    expect(documentedTagExpression(findEdition("ja"))).toContain("not @both-names");
    expect(renameKeys({ command: "sleep 5", timeoutSeconds: 1 }, findEdition("ja").names.args)).toEqual({ command: "sleep 5", timeout: 1 });
    expect(() => findEdition("fr")).toThrow(/--edition must be one of newest, ja, sv, tl \(got "fr"\)/);
  });
});

describe("level Documented with an edition", () => {
  const catalogRules = [rule("SET-06", "legacy-doc"), rule("SET-09", "doc"), rule("SET-11", "doc"), rule("SET-07", "upstream")];
  // An implementation of the Japanese page: the PI_BASH_* alias works, the newest name does not.
  const scenarios = [scenario("SET-06", "legacy-doc", "passed"), scenario("SET-09", "doc", "failed"), scenario("SET-11", "doc", "passed")];

  it("is not reached for the newest edition when a rule of its names fails", () => {
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios });
    expect(matrix.level).toBe("none");
    expect(matrix.nextLevel).toEqual({ name: "Documented", blockedBy: { failed: 1 } });
  });

  it("is reached for the older edition, and the headline names it", () => {
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios, edition: findEdition("ja") });
    expect(matrix.level).toBe("Documented");
    expect(matrix.edition).toBe("ja, older");
    expect(headlineSentence(matrix)).toBe("Level reached: Documented (edition ja, older)");
  });

  it("still needs the edition's legacy-doc rules to pass", () => {
    const failing = [scenario("SET-06", "legacy-doc", "failed"), scenario("SET-11", "doc", "passed")];
    const matrix = buildComplianceMatrix({ rules: catalogRules, scenarios: failing, edition: findEdition("ja") });
    expect(matrix.level).toBe("none");
  });
});

function runKit(args: string[]): Promise<{ exitCode: number | null; level: string; failed: string[]; edition: string }> {
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
        resolve({ exitCode, level: matrix.level, edition: matrix.run.edition, failed: matrix.rows.filter((row) => row.verdict === "failed").map((row) => row.id) });
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

  it("passes them under --edition ja, where the kit speaks timeout and PI_BASH_YIELD_MS", async () => {
    const run = await runKit([...tags, "--edition", "ja"]);
    expect(run.failed).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.edition).toBe("ja, older");
  }, 240_000);
});
