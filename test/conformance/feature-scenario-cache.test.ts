// conformance/report/scenario-steps.ts: the build's cache of the kit's feature scenarios, which a report uses for the
// files a run did not load, must give exactly what parsing gives, and must not stand in for a file that changed.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  buildFeatureScenarioCache, loadFeatureScenarioCache, readFeatureScenarios,
} from "../../conformance/report/scenario-steps.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const FEATURES = join(ROOT, "features");
const scratch = mkdtempSync(join(tmpdir(), "feature-cache-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("gives from the cache exactly the scenarios that parsing the kit's features gives", () => {
  const cache = buildFeatureScenarioCache(FEATURES);
  expect(readFeatureScenarios(FEATURES, () => true, cache)).toEqual(readFeatureScenarios(FEATURES));
});

it("parses a file again when its text is not the one the cache was made from", () => {
  const feature = (name: string): string => `Feature: f\n  @RULE-1 @doc\n  Scenario: ${name}\n    When it runs\n`;
  writeFileSync(join(scratch, "one.feature"), feature("before"));
  const cache = buildFeatureScenarioCache(scratch);
  writeFileSync(join(scratch, "one.feature"), feature("after"));
  expect(readFeatureScenarios(scratch, () => true, cache).map((scenario) => scenario.name)).toEqual(["after"]);
});

it("holds, in the build, every feature file of the kit as it is now (test/global-setup.ts builds first)", () => {
  const cache = loadFeatureScenarioCache(join(ROOT, "dist/conformance/report/feature-scenarios.json"));
  const sha1 = (file: string): string => createHash("sha1").update(readFileSync(join(FEATURES, file), "utf8")).digest("hex");
  const files = Object.keys(buildFeatureScenarioCache(FEATURES)).sort();
  expect(Object.keys(cache).sort()).toEqual(files);
  expect(files.filter((file) => cache[file]?.sha1 !== sha1(file))).toEqual([]);
});
