// conformance/feature-candidates.ts: the feature files a tag expression can select from, read from their tag lines,
// must hold every file cucumber's own plan selects from (else the kit would leave scenarios out).
import { loadConfiguration, loadSources } from "@cucumber/cucumber/api";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { documentedTagExpression, findEdition, NEWEST_EDITION } from "../../conformance/catalog/editions.js";
import { candidateFeatureFiles, scenarioTagSets } from "../../conformance/feature-candidates.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const FEATURES = readdirSync(join(ROOT, "features")).filter((name) => name.endsWith(".feature")).sort().map((name) => join(ROOT, "features", name));

describe("scenarioTagSets", () => {
  it("gives each scenario and each examples table the tags of its feature, rule and own lines", () => {
    const text = [
      "@area @shared", "Feature: f", "  Background:", "    Given a thing",
      "  @RULE-1", "  Rule: r",
      "    @doc # a comment after the tag", "", "    # a comment between the tags and the keyword",
      "    Scenario: plain", "      When it runs",
      "    @upstream", "    Scenario Outline: outline <x>", "      When it runs",
      "      @slow", "      Examples:", "        | x |", "        | 1 |",
      "      Examples:", "        | x |", "        | 2 |",
      "  Rule: other", "    Example: synonym",
    ].join("\n");
    expect(scenarioTagSets(text)).toEqual([
      ["@area", "@shared", "@RULE-1", "@doc"],
      ["@area", "@shared", "@RULE-1", "@upstream"],
      ["@area", "@shared", "@RULE-1", "@upstream", "@slow"],
      ["@area", "@shared", "@RULE-1", "@upstream"],
      ["@area", "@shared"],
    ]);
  });

  it("reads no tags or keywords inside a docstring", () => {
    const text = ['Feature: f', '  Scenario: s', '    Given the text:', '      """', '      @fake', '      Scenario: not one', '      """',
      '    And the code:', '      ```', '      @also-fake', '      ```', '  @real', '  Scenario: t'].join("\n");
    expect(scenarioTagSets(text)).toEqual([[], ["@real"]]);
  });
});

/** The files of cucumber's own plan for `tags`, relative to the repository. */
async function plannedFiles(tags: string): Promise<string[]> {
  const { runConfiguration } = await loadConfiguration({ file: false, provided: { paths: FEATURES, tags } }, { cwd: ROOT });
  const { plan } = await loadSources(runConfiguration.sources, { cwd: ROOT });
  return [...new Set(plan.map(({ uri }) => uri))].sort();
}

describe("candidateFeatureFiles against cucumber's plan over the kit's features", () => {
  const rel = (paths: string[]): string[] => paths.map((path) => relative(ROOT, path)).sort();

  it.each([
    ["one rule", "@RES-06"],
    ["two rules", "@LOG-03 or @LOG-04"],
    ["a rule without its slow scenarios", "@SET-07 and not @slow"],
    ["level Documented, newest edition", documentedTagExpression(NEWEST_EDITION)],
    ["level Documented, edition ja, four rules", `(${documentedTagExpression(findEdition("ja"))}) and ((@SET-06 or @SET-09 or @EXEC-04 or @RES-13) and not @slow)`],
    ["level Compatibility without the slow scenarios", "(@doc or @legacy-doc) and (not @slow)"],
  ])("selects exactly the files of the plan for %s", async (_label, tags) => {
    const planned = await plannedFiles(tags);
    expect(planned.length).toBeGreaterThan(0);
    expect(rel(candidateFeatureFiles(FEATURES, tags))).toEqual(planned);
  });

  it("keeps every file for the empty expression (level Reference without tags)", () => {
    expect(candidateFeatureFiles(FEATURES, "")).toEqual(FEATURES);
  });

  it("keeps no file for a tag that no scenario has", () => {
    expect(candidateFeatureFiles(FEATURES, "@NO-SUCH-RULE")).toEqual([]);
  });
});
