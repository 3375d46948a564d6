// conformance/catalog/documentation-map.json against the editions of the documentation page (docs/editions/):
// every sentence of every edition is mapped to statements whose rules exist, or marked not normative with a reason;
// and how a sentence's verdict follows from its rules' verdicts.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import documentationMap from "../../conformance/catalog/documentation-map.json" with { type: "json" };
import type { RuleVerdict } from "../../conformance/report/compliance-matrix.js";
import {
  isNormative, sentenceRules, sentenceVerdict, sentenceVerdictLabel, type DocumentationMap,
} from "../../conformance/report/documentation-map.js";
import { editionSentences, splitEdition, splitSentences } from "../../conformance/report/edition-sentences.js";

const map = documentationMap as DocumentationMap;
const docs = (file: string): string => new URL(`../../docs/${file}`, import.meta.url).pathname;
const ruleIds = new Set((catalog as Array<{ id: string }>).map((rule) => rule.id));

describe("the documentation map", () => {
  it("has the four editions, newest (Chinese) first, each in docs/editions/", () => {
    expect(map.editions.map((edition) => edition.id)).toEqual(["zh", "ja", "sv", "tl"]);
    for (const edition of map.editions) expect(existsSync(docs(edition.file)), edition.file).toBe(true);
    expect(readdirSync(docs("editions")).sort()).toEqual(map.editions.map((edition) => edition.file.replace("editions/", "")).sort());
  });

  it.each(map.editions.map((edition) => [edition.id, edition] as const))("lists every sentence of edition %s, in order, and nothing else", (_id, edition) => {
    const sentences = editionSentences(readFileSync(docs(edition.file), "utf8"));
    const unmapped = sentences.filter((text, index) => edition.sentences[index]?.text !== text);
    expect(unmapped, "run `npx tsx scripts/build-documentation-map.ts` and map the new sentences").toEqual([]);
    expect(edition.sentences.map((entry) => entry.text)).toEqual(sentences);
  });

  it("maps each normative sentence to at least one statement, and gives each other sentence a reason", () => {
    const unmapped = map.editions.flatMap((edition) => edition.sentences
      .filter((entry) => (isNormative(entry) ? entry.statements.length === 0 : entry.notNormative.trim() === ""))
      .map((entry) => `${edition.id}: ${entry.text}`));
    expect(unmapped).toEqual([]);
  });

  it("names only statements that exist, whose rules are all in the catalog", () => {
    const unknownStatements = map.editions.flatMap((edition) => edition.sentences.flatMap((entry) => (isNormative(entry) ? entry.statements : []))
      .filter((id) => !map.statements[id]));
    expect(unknownStatements).toEqual([]);
    const unknownRules = Object.entries(map.statements).flatMap(([id, statement]) => statement.rules.filter((rule) => !ruleIds.has(rule)).map((rule) => `${id}: ${rule}`));
    expect(unknownRules).toEqual([]);
  });

  it("maps the newest edition to the newest statements (N…) only, and each of them but the related-pages line", () => {
    const newest = map.editions[0]!;
    const used = new Set(newest.sentences.flatMap((entry) => (isNormative(entry) ? entry.statements : [])));
    expect([...used].filter((id) => !id.startsWith("N"))).toEqual([]);
    expect(Object.keys(map.statements).filter((id) => id.startsWith("N") && !used.has(id))).toEqual(["N74"]);
  });

  it("gives a sentence the rules of its statements, each once", () => {
    const timeoutRow = map.editions[0]!.sentences.find((entry) => entry.text.startsWith("`timeoutSeconds` |"))!;
    expect(sentenceRules(map, timeoutRow)).toEqual(["EXEC-29", "EXEC-30", "EXEC-31", "SET-16", "RES-13", "RES-14", "KILL-10"]);
    expect(sentenceRules(map, { text: "workdir, env", statements: ["N04", "N05"] })).toEqual(
      ["EXEC-18", "EXEC-19", "EXEC-20", "EXEC-23", "EXEC-14", "EXEC-16", "EXEC-17"]);
    expect(sentenceRules(map, { text: "Mga tala:", notNormative: "label" })).toEqual([]);
  });

  const sharedSeeds = new URL("../../../shared/seeds/", import.meta.url).pathname;
  it.runIf(existsSync(sharedSeeds))("ships the editions unchanged from ../shared/seeds", () => {
    const seeds = readdirSync(sharedSeeds).map((file) => readFileSync(`${sharedSeeds}${file}`, "utf8")).sort();
    const shipped = map.editions.map((edition) => readFileSync(docs(edition.file), "utf8")).sort();
    expect(shipped).toEqual(seeds);
  });
});

describe("splitting an edition into sentences", () => {
  it.each([
    ["Behöver du en riktig TTY? Ange pty: true.", ["Behöver du en riktig TTY?", "Ange pty: true."]],
    ["已完成的会话会在配置的 TTL 后过期。注册表最多还会保留 50 个已完成会话。", ["已完成的会话会在配置的 TTL 后过期。", "注册表最多还会保留 50 个已完成会话。"]],
    ["`tools.exec.cleanupMs` (1800000): same. (hal., mga CLI)", ["`tools.exec.cleanupMs` (1800000): same.", "(hal., mga CLI)"]],
    ["実際の TTY が必要ですか? pty: true を設定します。", ["実際の TTY が必要ですか?", "pty: true を設定します。"]],
  ])("splits %j", (text, sentences) => {
    expect(splitSentences(text)).toEqual(sentences);
  });

  it("reads headings, bullets, table rows and code examples as blocks", () => {
    const blocks = splitEdition([
      "## exec 工具", "", "参数：", "", "| 参数 | 描述 |", "| --- | --- |", "| `command` | 必需。要运行的 Shell 命令。 |", "",
      "* 前台运行会直接返回保留的输出。", "", "```json theme={}", "{ \"tool\": \"exec\" }", "```", "Mga tala:", "• list: körande",
      "process tool¶", "{ \"tool\": \"process\" }",
    ].join("\n"));
    expect(blocks).toEqual([
      { kind: "heading", sentences: ["exec 工具"] },
      { kind: "paragraph", sentences: ["参数："] },
      { kind: "heading", sentences: ["参数 | 描述"] },
      { kind: "row", sentences: ["`command` | 必需。要运行的 Shell 命令。"] },
      { kind: "item", sentences: ["前台运行会直接返回保留的输出。"] },
      { kind: "code", sentences: ["{ \"tool\": \"exec\" }"] },
      { kind: "paragraph", sentences: ["Mga tala:"] },
      { kind: "item", sentences: ["list: körande"] },
      { kind: "heading", sentences: ["process tool"] },
      { kind: "code", sentences: ["{ \"tool\": \"process\" }"] },
    ]);
  });
});

describe("the verdict of a sentence", () => {
  const cases: Array<[RuleVerdict[], string, string]> = [
    [["passed", "passed"], "passed", "all 2 rules passed"],
    [["passed"], "passed", "its rule passed"],
    [["passed", "not run", "no scenario"], "passed", "passed: 1 of 3 rules (2 not run)"],
    [["passed", "failed"], "failed", "some rules failed"],
    [["passed", "diverges"], "failed", "some rules failed"],
    [["not applicable", "passed", "not run"], "passed", "passed: 1 of 3 rules (1 not applicable, 1 not run)"],
    [["not applicable", "not run"], "not applicable", "not applicable (capability missing)"],
    [["skipped", "passed"], "skipped", "some rules skipped"],
    [["not run", "no scenario"], "not run", "not run"],
    [[], "not run", "not run"],
  ];

  it.each(cases)("from rule verdicts %j is %s (%s)", (verdicts, verdict, label) => {
    const outcome = sentenceVerdict(verdicts);
    expect(outcome.verdict).toBe(verdict);
    expect(sentenceVerdictLabel(outcome)).toBe(label);
  });
});
