// Refreshes conformance/catalog/documentation-map.json: `npx tsx scripts/build-documentation-map.ts [path/to/SPEC.md]`
// (default ../shared/SPEC.md, the one with Appendix A). The statements (N01…, L01…) and their rules come from
// Appendix A; the sentences come from the editions in docs/editions/. A sentence already in the map keeps its
// mapping; a new one gets `"statements": []`, which test/conformance/documentation-map.test.ts rejects until a
// person maps it or marks it not normative. The committed file is the source of truth.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import catalog from "../conformance/catalog/rules.json" with { type: "json" };
import type { DocumentationEdition, DocumentationMap, DocumentationStatement, SentenceEntry } from "../conformance/report/documentation-map.js";
import { editionSentences } from "../conformance/report/edition-sentences.js";

const root = new URL("..", import.meta.url).pathname;
const specPath = process.argv[2] ?? new URL("../../shared/SPEC.md", import.meta.url).pathname;
const mapPath = `${root}conformance/catalog/documentation-map.json`;
const ruleIds = (catalog as Array<{ id: string }>).map((rule) => rule.id);

const previous: DocumentationMap = existsSync(mapPath)
  ? JSON.parse(readFileSync(mapPath, "utf8")) as DocumentationMap
  : { editions: [], statements: {} };

const statements = parseAppendixA(readFileSync(specPath, "utf8"));
const editions = previous.editions.map((edition): DocumentationEdition => {
  const known = new Map<string, SentenceEntry[]>();
  for (const entry of edition.sentences) known.set(entry.text, [...(known.get(entry.text) ?? []), entry]);
  const sentences = editionSentences(readFileSync(`${root}docs/${edition.file}`, "utf8"))
    .map((text): SentenceEntry => known.get(text)?.shift() ?? { text, statements: [] });
  return { ...edition, sentences };
});
writeFileSync(mapPath, `${JSON.stringify({ editions, statements }, null, 1)}\n`);
console.log(`${Object.keys(statements).length} statements and ${editions.reduce((n, e) => n + e.sentences.length, 0)} sentences written to ${mapPath}`);

/** The rows `| N01 | statement | rules |` of Appendix A. */
function parseAppendixA(markdown: string): Record<string, DocumentationStatement> {
  const appendix = markdown.slice(markdown.indexOf("## Appendix A."));
  const result: Record<string, DocumentationStatement> = {};
  for (const line of appendix.split("\n")) {
    const match = /^\| ([NL]\d+) \| (.*) \| (.*) \|$/.exec(line);
    if (!match) continue;
    const [, id = "", text = "", cell = ""] = match;
    const statement: DocumentationStatement = { text, rules: [] };
    for (const part of cell.split(/[,;] /)) {
      const range = /^([A-Z]+-\d+) to ([A-Z]+-\d+)/.exec(part);
      const single = /^([A-Z]+-\d+[a-z]?)(?: |$)/.exec(part);
      if (range) statement.rules.push(...ruleRange(range[1]!, range[2]!));
      else if (single) statement.rules.push(single[1]!);
      const rest = part.replace(/^[A-Z]+-\d+[a-z]?\s*/, "").trim();
      if (rest.includes("§")) (statement.sections ??= []).push(rest.replace(/^\((.*)\)$/, "$1"));
    }
    result[id] = statement;
  }
  return result;
}

/**
 * `KILL-01 to KILL-08`: the rules of that prefix between the two, in catalog order. A prefix may appear in more than
 * one section (KILL-08 is in §11, KILL-07 in §7.6): the catalog's order between them holds other prefixes' rules.
 */
function ruleRange(first: string, last: string): string[] {
  const prefix = first.replace(/-\d+[a-z]?$/, "-");
  const ofPrefix = ruleIds.filter((id) => id.startsWith(prefix));
  return ofPrefix.slice(ofPrefix.indexOf(first), ofPrefix.indexOf(last) + 1);
}
