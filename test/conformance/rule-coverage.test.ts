// The rule-coverage gate: every SPEC rule of the covered areas has a scenario with its own profile, and every
// scenario names only real rules and carries exactly one profile tag, the most specific of its rules or `reference`.
// An [upstream] rule that the reference deliberately does not follow (listed with its reason in the upstream
// divergence file, docs/UPSTREAM.md) may be covered by a @reference scenario instead.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROFILES, parseSpecRules, type Profile, type RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { RULE_TAG, readScenarioTags } from "../../conformance/catalog/feature-tags.js";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import upstreamDivergences from "../../conformance/upstream/divergences.json" with { type: "json" };
import { specWithoutAppendixA } from "../../scripts/spec-doc.mjs";

/** Areas whose rules must all be covered by scenarios. */
const COVERED_PREFIXES = [
  "SET", "EXEC", "RES", "OUT", "REG", "ID", "NAME", "KILL", "PTY",
  "PROC", "LIST", "POLL", "LOG", "INPUT", "KEYS", "WAIT", "NOTIFY",
  "LC",
];

const rules = catalog as RuleEntry[];
const byId = new Map(rules.map((rule) => [rule.id, rule]));
const scenarios = readScenarioTags(new URL("../../features", import.meta.url).pathname);
const rank = (profile: Profile): number => PROFILES.indexOf(profile);

describe("the rules catalog", () => {
  const specPath = new URL("../../docs/SPEC.md", import.meta.url).pathname;
  it("is in sync with docs/SPEC.md (regenerate with scripts/build-rules-catalog.ts)", () => {
    expect(parseSpecRules(readFileSync(specPath, "utf8"))).toEqual(rules);
  });

  const sharedSpecPath = new URL("../../../shared/SPEC.md", import.meta.url).pathname;
  it.runIf(existsSync(sharedSpecPath))("reads docs/SPEC.md, which is ../shared/SPEC.md without Appendix A (regenerate with scripts/spec-doc.mjs)", () => {
    expect(readFileSync(specPath, "utf8")).toBe(specWithoutAppendixA(readFileSync(sharedSpecPath, "utf8")));
  });

  it("has unique rule ids", () => {
    expect(byId.size).toBe(rules.length);
  });
});

describe("the conformance features", () => {
  it("have scenarios", () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  it("name only rule ids that SPEC.md has", () => {
    const unknown = scenarios.flatMap((s) => s.tags.filter((t) => RULE_TAG.test(t) && !byId.has(t.slice(1)))
      .map((t) => `${s.uri}: "${s.name}" ${t}`));
    expect(unknown).toEqual([]);
  });

  it("give every scenario exactly one profile tag, the most specific profile of its rules", () => {
    const wrong = scenarios.flatMap((s) => {
      const profiles = s.tags.filter((t) => PROFILES.includes(t.slice(1) as Profile)).map((t) => t.slice(1) as Profile);
      const ruleProfiles = s.tags.map((t) => byId.get(t.slice(1))?.profile).filter((p): p is Profile => p !== undefined);
      if (profiles.length !== 1) return [`${s.uri}: "${s.name}" has profile tags [${profiles.join(", ")}]`];
      const expected = ruleProfiles.reduce<Profile>((a, b) => (rank(b) > rank(a) ? b : a), "doc");
      if (profiles[0] === expected || profiles[0] === "reference") return [];
      return [`${s.uri}: "${s.name}" is @${profiles[0]} but its rules make it @${expected}`];
    });
    expect(wrong).toEqual([]);
  });

  it("cover every rule of the covered areas with a scenario of the rule's own profile", () => {
    const deliberatelyDifferent = new Set(Object.keys(upstreamDivergences));
    const covered = new Set(scenarios.flatMap((s) => {
      const profile = s.tags.find((t) => PROFILES.includes(t.slice(1) as Profile))?.slice(1);
      return s.tags.filter((t) => RULE_TAG.test(t)).map((t) => t.slice(1)).filter((id) => byId.get(id)?.profile === profile
        || (profile === "reference" && byId.get(id)?.profile === "upstream" && deliberatelyDifferent.has(id)));
    }));
    const missing = rules.filter((r) => COVERED_PREFIXES.includes(r.prefix) && !covered.has(r.id)).map((r) => r.id);
    expect(missing).toEqual([]);
  });
});
