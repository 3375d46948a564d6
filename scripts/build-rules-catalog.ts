// Regenerates conformance/catalog/rules.json from docs/SPEC.md: `npx tsx scripts/build-rules-catalog.ts [path/to/SPEC.md]`.
import { readFileSync, writeFileSync } from "node:fs";
import { parseSpecRules } from "../conformance/catalog/spec-rules.js";

const specPath = process.argv[2] ?? new URL("../docs/SPEC.md", import.meta.url).pathname;
const rules = parseSpecRules(readFileSync(specPath, "utf8"));
const target = new URL("../conformance/catalog/rules.json", import.meta.url).pathname;
writeFileSync(target, `${JSON.stringify(rules, null, 1)}\n`);
console.log(`${rules.length} rules written to ${target}`);
