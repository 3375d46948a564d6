// The mutation table (conformance/mutation-table.json, written by `npm run mutants`) must give every doc rule a fault
// that a scenario of that rule catches, must match the fault catalog and the features, and must not be stale: a
// small seeded sample of faults is run live and has to be caught by the scenarios the table names.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROFILES, type Profile } from "../../conformance/catalog/spec-rules.js";
import { RULE_TAG, readScenarioTags } from "../../conformance/catalog/feature-tags.js";
import { FAULTS } from "../../conformance/fixtures/mutants/faults.js";
import {
  DOC_RULES, TABLE_JSON, runFault, uncaughtDocFaults, uncaughtDocRules, type FaultOutcome,
} from "../../conformance/fixtures/mutants/run-mutants.js";

interface Table { rules: Record<string, Array<{ fault: string; caughtBy: string[] }>>; faults: FaultOutcome[] }

const table = JSON.parse(readFileSync(TABLE_JSON, "utf8")) as Table;
const scenarios = readScenarioTags(new URL("../../features", import.meta.url).pathname);

/** The rules that @doc scenarios of the features carry, and that the SPEC catalog makes doc rules. */
const docRulesOfFeatures = new Set(scenarios.filter((s) => s.tags.includes("@doc"))
  .flatMap((s) => s.tags.filter((t) => RULE_TAG.test(t)).map((t) => t.slice(1))).filter((id) => DOC_RULES.includes(id)));

/** `file:line name` of a caught scenario, reduced to its file and name (lines move when scenarios are added). */
const fileAndName = (scenario: string): string => scenario.replace(/:\d+ /, " ");
const scenarioKeys = new Set(scenarios.filter((s) => s.tags.some((t) => PROFILES.includes(t.slice(1) as Profile))).map((s) => `${s.uri} ${s.name}`));

describe("the mutation table of the doc rules", () => {
  it("lists no doc rule of the SPEC without a caught fault", () => {
    expect(uncaughtDocRules(table.rules)).toEqual([]);
  });

  it("lists no doc rule of the features' @doc scenarios without a caught fault", () => {
    expect(uncaughtDocRules(table.rules, [...docRulesOfFeatures].sort())).toEqual([]);
  });

  it("lists no fault aimed at a doc rule that no scenario of that rule caught", () => {
    expect(uncaughtDocFaults(table.rules)).toEqual([]);
  });

  it("has one row per doc rule of the SPEC", () => {
    expect(Object.keys(table.rules).filter((rule) => DOC_RULES.includes(rule)).sort()).toEqual([...DOC_RULES].sort());
  });

  it("records every fault of the catalog with the rules it targets", () => {
    expect(table.faults.map((f) => [f.id, f.rules])).toEqual(FAULTS.map((f) => [f.id, f.rules]));
  });

  it("names only scenarios that the features still have", () => {
    const missing = table.faults.flatMap((f) => f.caught.map((c) => fileAndName(c.scenario))).filter((key) => !scenarioKeys.has(key));
    expect(missing).toEqual([]);
  });
});

/** mulberry32: a small seeded generator, so the sample is random across faults but reproducible. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed: MUTANT_SAMPLE_SEED, else the day (so the sample moves through the catalog from one day to the next). */
const SEED = Number(process.env["MUTANT_SAMPLE_SEED"] ?? Math.floor(Date.now() / 86_400_000));
const SAMPLE_SIZE = 3;
/** Faults whose table run took longer than this are left out of the live sample (CPU on a 2-core machine). */
const MAX_SAMPLE_SECONDS = 25;

function sample(): FaultOutcome[] {
  const random = seeded(SEED);
  const pool = table.faults.filter((f) => f.seconds <= MAX_SAMPLE_SECONDS && f.caught.length > 0);
  const picked: FaultOutcome[] = [];
  while (picked.length < SAMPLE_SIZE && pool.length > 0) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return picked;
}

// The sampled faults run side by side: each is one kit worker waiting on its scenarios' commands, and one after the
// other they made this file the last of the unit tests to end.
describe.concurrent(`a live sample of the mutation table (seed ${SEED}, MUTANT_SAMPLE_SEED to choose)`, () => {
  it.for(sample())("$id is still caught by the scenarios the table names", { timeout: 180_000 }, async (recorded, { expect }) => {
    const fault = FAULTS.find((f) => f.id === recorded.id);
    expect(fault, `${recorded.id} is not in faults.ts`).toBeDefined();
    const live = await runFault(fault!);
    const caughtNow = new Set(live.caught.map((c) => fileAndName(c.scenario)));
    for (const rule of recorded.rules) {
      const expected = recorded.caught.filter((c) => c.rules.includes(rule)).map((c) => fileAndName(c.scenario));
      if (expected.length > 0) expect(expected.filter((s) => caughtNow.has(s)), `${recorded.id} on ${rule}`).not.toEqual([]);
    }
  });
});
