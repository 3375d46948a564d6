// The rules each edition of the documentation states (issue 35, item 6): derived from the sentence map
// (conformance/catalog/documentation-map.json, as documentation.html links them) and compared with SPEC §15, with
// the rules the Swedish page was found not to state, and with the pages themselves.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import documentationMap from "../../conformance/catalog/documentation-map.json" with { type: "json" };
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { editionRules, isNormative, ruleSources, sentenceRules, type DocumentationMap } from "../../conformance/report/documentation-map.js";
import { readFeatureScenarios } from "../../conformance/report/scenario-steps.js";
import { documentedTagExpression, findEdition, isDocumentedIn } from "../../conformance/catalog/editions.js";
import parseTagExpression from "@cucumber/tag-expressions";

const map = documentationMap as DocumentationMap;
const rules = catalog as RuleEntry[];
const profileOf = new Map(rules.map((rule) => [rule.id, rule.profile]));
const documented = (id: string): boolean => profileOf.get(id) === "doc" || profileOf.get(id) === "legacy-doc";
const OLDER = ["ja", "sv", "tl"] as const;
const stated = Object.fromEntries(map.editions.map((edition) => [edition.id, editionRules(map, edition.id)]));
/** The older editions that state a rule, derived from the map. */
const olderEditionsStating = (id: string): string[] => OLDER.filter((edition) => stated[edition]?.has(id));
const page = (id: string): string => readFileSync(new URL(`../../docs/${map.editions.find((e) => e.id === id)!.file}`, import.meta.url), "utf8");

/** The rows of SPEC §15's table: topic and the rule ids of its resolution, a range `A-01 to A-05` expanded. */
function section15Rows(): Array<{ topic: string; ruleIds: string[] }> {
  const spec = readFileSync(new URL("../../docs/SPEC.md", import.meta.url), "utf8");
  const start = spec.indexOf("## 15. Version notes");
  const end = spec.indexOf("\n## ", start + 1);
  const section = spec.slice(start, end === -1 ? undefined : end);
  const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| Topic") && !line.startsWith("|---"));
  return rows.map((line) => {
    const cells = line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, ""));
    const resolution = cells[4] ?? "";
    const ruleIds = [...resolution.matchAll(/([A-Z]+-\d+[a-z]?)(?: to ([A-Z]+-\d+))?/g)].flatMap(([, first = "", last]) => {
      if (!last) return [first];
      const ofPrefix = rules.map((rule) => rule.id).filter((id) => id.startsWith(first.replace(/\d+$/, "")));
      return ofPrefix.slice(ofPrefix.indexOf(first), ofPrefix.indexOf(last) + 1);
    });
    return { topic: cells[0] ?? "", ruleIds };
  });
}

const ALL = [...OLDER];
/**
 * Each row of SPEC §15 by the start of its topic: the older editions that state the row's doc and legacy-doc
 * rules, and per rule where that differs, with the reason in the map's `notStated`.
 */
const SECTION_15: Record<string, { editions: string[]; rules?: Record<string, string[]> }> = {
  // The pages have `timeout`, but EXEC-04 and LC-11 give it the newest name's meaning (0 disables, deprecated alias).
  "exec timeout parameter": { editions: [] },
  // SET-16 also makes background runs inherit the default, which only the newest edition says (N15).
  "config default timeout": { editions: ALL, rules: { "SET-16": [] } },
  "env variable names": { editions: ALL },
  "pending cap variable": { editions: [] },
  // "only the TTL range (1 min–3 h)".
  "defaults and clamps of env variables": { editions: [], rules: { "SET-12": ALL } },
  "input-wait threshold": { editions: [] },
  "`notifyOnExitEmptySuccess`": { editions: ["ja", "sv"] },
  "process actions": { editions: ["ja"] },
  // "omit offset to get the last N lines" (LOG-06): sv, tl; the 200-line default and offset-only window: ja, sv.
  "log window": { editions: ALL, rules: { "LOG-03": ["ja", "sv"], "LOG-05": ["ja", "sv"], "LOG-06": ["sv", "tl"] } },
  // LC-04, the opt-in thread scope, is the product's, not an older page's.
  "\"process is scoped per agent\"": { editions: ALL, rules: { "LC-04": [] } },
  "\"output stays in memory": { editions: ALL },
  "`write` sends stdin": { editions: ALL },
  "finished-session caps": { editions: [] },
  "discarded vs omitted output": { editions: [] },
  // LC-09's scenario has the process description mention the 30000 ms poll clamp, which no older page states.
  "`OPENCLAW_SHELL=exec`": { editions: ["ja"], rules: { "LC-09": [] } },
  // No older page has `host`; EXEC-13 is elevation under each host.
  "`elevated`": { editions: ALL, rules: { "EXEC-13": [] } },
  "`host`, `node` parameters": { editions: [] },
  "\"backgrounded explicitly or via timeout\"": { editions: [] },
  "reset/delete": { editions: [] },
  "\"Need a real TTY?": { editions: ALL },
  // The Japanese page has the bridging heading only.
  "bridge helper detaches on error": { editions: ["sv", "tl"] },
  "unusable workdir vs forbidden env": { editions: [] },
  "sessions written to disk": { editions: ALL },
};

describe("the rules each edition states, derived from the sentence map", () => {
  it("gives the newest edition every doc rule and no legacy-doc rule", () => {
    const newest = stated["zh"]!;
    expect(rules.filter((rule) => rule.profile === "doc" && !newest.has(rule.id)).map((rule) => rule.id)).toEqual([]);
    expect([...newest].filter((id) => profileOf.get(id) === "legacy-doc")).toEqual([]);
  });

  it.each(section15Rows().map((row) => [row.topic, row] as const))("follows SPEC §15 on %s", (_topic, row) => {
    const key = Object.keys(SECTION_15).find((start) => row.topic.startsWith(start));
    expect(key, `classify the §15 row "${row.topic}" in SECTION_15`).toBeDefined();
    const expected = SECTION_15[key!]!;
    const ruleIds = row.ruleIds.filter(documented);
    const actual = Object.fromEntries(ruleIds.map((id) => [id, olderEditionsStating(id)]));
    expect(actual).toEqual(Object.fromEntries(ruleIds.map((id) => [id, expected.rules?.[id] ?? expected.editions])));
  });

  it("states no rule of waitingForInput (§9) in an older edition: SPEC §15 calls the input-wait threshold absent", () => {
    const wait = rules.filter((rule) => rule.id.startsWith("WAIT-") && documented(rule.id)).map((rule) => rule.id);
    expect(wait.length).toBeGreaterThan(0);
    expect(wait.filter((id) => olderEditionsStating(id).length > 0)).toEqual([]);
  });

  it("counts none of the rules that the Swedish page does not state (issue 35)", () => {
    const absent = [
      "EXEC-05", "EXEC-06", "EXEC-08", "EXEC-10", "EXEC-13", "EXEC-15", "EXEC-03", "EXEC-14", "SET-11", "SET-14", "WAIT-01", "WAIT-08",
      "REG-07", "REG-08", "REG-09", "REG-13", "REG-14", "PROC-14", "POLL-07", "OUT-15", "RES-07", "PROC-01", "INPUT-02", "INPUT-11",
      "INPUT-13", "KEYS-01", "NAME-01", "EXEC-04",
    ];
    expect(absent.filter((id) => stated["sv"]!.has(id))).toEqual([]);
  });

  it.each(OLDER)("lists for edition %s the rules it states, as the pages were read", (edition) => {
    const own = [...stated[edition]!].filter(documented);
    // What sets the pages apart: ten actions and the completion-wake guidance (ja), the 200-line window (ja, sv),
    // "omit offset" (sv, tl), the bridging paragraph (sv, tl), notifyOnExitEmptySuccess (ja, sv), the opening
    // paragraph (not tl).
    const expected = {
      ja: ["PROC-01", "INPUT-02", "INPUT-11", "INPUT-13", "KEYS-01", "EXEC-15", "LOG-03", "LOG-05", "SET-21", "NOTIFY-03"],
      sv: ["LOG-03", "LOG-05", "LOG-06", "KILL-17", "KILL-18", "SET-21", "NOTIFY-03", "EXEC-37", "LC-01"],
      tl: ["LOG-06", "KILL-17", "KILL-18", "LC-01"],
    }[edition];
    const notExpected = {
      ja: ["LOG-06", "KILL-17", "KILL-18", "EXEC-37", "LC-01"],
      sv: ["PROC-01", "INPUT-02", "EXEC-15", "LC-09"],
      tl: ["PROC-01", "EXEC-15", "LOG-03", "LOG-05", "SET-21", "NOTIFY-03", "EXEC-37"],
    }[edition];
    expect(own).toEqual(expect.arrayContaining(expected));
    expect(notExpected.filter((id) => own.includes(id))).toEqual([]);
  });
});

describe("the scenarios an older edition runs", () => {
  const scenarios = readFeatureScenarios(new URL("../../features", import.meta.url).pathname);

  it.each(OLDER)("verify under edition %s every rule the edition counts, so that its level can be reached", (id) => {
    const edition = findEdition(id);
    const selected = parseTagExpression(documentedTagExpression(edition));
    const runs = scenarios.filter((scenario) => selected.evaluate(scenario.tags));
    const counted = rules.filter((rule) => isDocumentedIn(edition, rule));
    expect(counted.length).toBeGreaterThan(40);
    const unverified = counted.filter((rule) => !runs.some((scenario) => scenario.tags.includes(`@${rule.id}`) && scenario.tags.includes(`@${rule.profile}`)));
    expect(unverified.map((rule) => rule.id)).toEqual([]);
  });

  it.each(OLDER)("use no poll timeout under edition %s, which no older page has", (id) => {
    const selected = parseTagExpression(documentedTagExpression(findEdition(id)));
    const using = scenarios.filter((scenario) => selected.evaluate(scenario.tags))
      .filter((scenario) => scenario.steps.some((step) => /polled with timeout|"action": "poll"[^}]*"timeout"/.test(`${step.text}${step.docString ?? ""}`)))
      .map((scenario) => `${scenario.uri}:${scenario.line} ${scenario.name}`);
    expect(using).toEqual([]);
  });
});

describe("what an older edition does not state", () => {
  const older = map.editions.filter((edition) => edition.id !== "zh");

  it("is said of older editions only, each group with its reason, and only of rules that its sentences link", () => {
    expect(map.editions[0]!.notStated).toBeUndefined();
    for (const edition of older) {
      const linked = new Set(edition.sentences.flatMap((entry) => (isNormative(entry)
        ? [...entry.statements.flatMap((id) => map.statements[id]?.rules ?? []), ...(entry.also?.rules ?? [])] : [])));
      for (const group of edition.notStated ?? []) {
        expect(group.why.length, `${edition.id}: ${group.rules.join(", ")}`).toBeGreaterThan(20);
        expect(group.rules.filter((id) => !linked.has(id)), `${edition.id}: never linked`).toEqual([]);
      }
    }
  });

  it("adds to a sentence through `also` only documented rules of the catalog, each with its reason", () => {
    const also = map.editions.flatMap((edition) => edition.sentences.flatMap((entry) => (isNormative(entry) && entry.also ? [entry.also] : [])));
    expect(also.length).toBeGreaterThan(0);
    for (const { rules: ids, why } of also) {
      expect(ids.filter((id) => !documented(id))).toEqual([]);
      expect(why.length).toBeGreaterThan(20);
    }
  });

  it("names words of the newest page that the older page does not contain", () => {
    const newest = page("zh");
    for (const edition of older) {
      const text = page(edition.id);
      for (const word of (edition.notStated ?? []).flatMap((group) => group.lacks ?? [])) {
        expect(newest, `the newest page has "${word}"`).toContain(word);
        expect(text, `${edition.id} lacks "${word}"`).not.toContain(word);
      }
    }
  });

  it("leaves those rules out of the edition's sentences, and names each rule's editions with a sentence", () => {
    const sv = map.editions.find((edition) => edition.id === "sv")!;
    const poll = sv.sentences.find((entry) => entry.text.startsWith("poll:"))!;
    expect(sentenceRules(map, poll)).toContain("POLL-07");
    expect(sentenceRules(map, poll, sv)).not.toContain("POLL-07");
    expect(sentenceRules(map, poll, sv)).toContain("POLL-03");
    const sources = ruleSources(map);
    expect(sources.get("POLL-07")?.map((source) => source.edition)).toEqual(["zh"]);
    expect(sources.get("SET-06")).toEqual([
      { edition: "ja", sentence: "PI_BASH_YIELD_MS: デフォルトの yield（ms）" },
      { edition: "sv", sentence: "PI_BASH_YIELD_MS: standard-yield (ms)" },
      { edition: "tl", sentence: "PI_BASH_YIELD_MS: default na yield (ms)" },
    ]);
    expect(sources.get("EXEC-38")?.map((source) => source.edition)).toEqual(["zh"]);
  });
});
