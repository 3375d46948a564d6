// docs/SPEC.md is the shared specification without its Appendix A (which restates the original documentation page).
// Regenerate: `node scripts/spec-doc.mjs [path/to/SPEC.md]` (default ../shared/SPEC.md).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const APPENDIX_A = /\n(?:---\s*\n\s*)?## Appendix A\.[\s\S]*?(?=\n## (?!Appendix A\.)|$)/;

/** The specification text without Appendix A (and the rule line that separates it from the chapters before it). */
export function specWithoutAppendixA(text) {
  return `${text.replace(APPENDIX_A, "").trimEnd()}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = process.argv[2] ?? new URL("../../shared/SPEC.md", import.meta.url).pathname;
  const target = new URL("../docs/SPEC.md", import.meta.url).pathname;
  writeFileSync(target, specWithoutAppendixA(readFileSync(source, "utf8")));
  console.log(`${target} written from ${source}`);
}
