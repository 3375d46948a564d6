// The upstream divergence file (conformance/upstream/divergences.json, passed by `npm run conformance:upstream`)
// and the table of docs/UPSTREAM.md list the same rules, and the file is one the kit's --divergences accepts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };
import { readDivergences } from "../../conformance/report/divergences.js";

const DIVERGENCES = new URL("../../conformance/upstream/divergences.json", import.meta.url).pathname;
const UPSTREAM_DOC = new URL("../../docs/UPSTREAM.md", import.meta.url).pathname;

/** Rule ids of the rows of the "Divergences" table: `| **RULE-ID** | …`. */
function tableRules(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Divergences")) ?? "";
  return [...section.matchAll(/^\| \*\*([A-Z]+-\d+[a-z]?)\*\* \|/gm)].map((match) => match[1] ?? "");
}

describe("the upstream divergences", () => {
  const divergences = readDivergences(DIVERGENCES, catalog as RuleEntry[]);
  const documented = tableRules(readFileSync(UPSTREAM_DOC, "utf8"));

  it("are a divergence file the kit accepts, with a note for every rule", () => {
    expect(Object.keys(divergences).length).toBeGreaterThan(0);
  });

  it("list in docs/UPSTREAM.md exactly the rules of the divergence file, once each", () => {
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual(Object.keys(divergences).sort());
  });

  it("point every note to docs/UPSTREAM.md", () => {
    expect(Object.entries(divergences).filter(([, note]) => !note.includes("docs/UPSTREAM.md"))).toEqual([]);
  });
});
