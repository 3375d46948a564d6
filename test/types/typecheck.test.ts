// The README's TypeScript snippets and the type fixture compile with `tsc --strict` against the package's published
// types (issue 25): each ```ts block becomes a module of its own, with the names it uses from earlier blocks (model,
// tools, …) declared; "langchain-exec-process" resolves to the declarations the build wrote in dist/, as it does for
// a user (package.json "exports"), so that tsc reads them instead of checking all of src/ again (npm run typecheck
// does that). One tsc run checks them all.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { readmeTypeScriptBlocks, ROOT, useScratchFolder } from "../helpers/readme.js";

const TSC_TIMEOUT_MS = 300_000;
const FIXTURE = "test/types/typed-api.fixture.ts";
const FIXTURE_SOURCE_IMPORT = '"../../src/index.js"';

/** Names a snippet may use from the blocks before it, and how they are declared when it does not declare them. */
const CONTEXT: Record<string, string> = {
  model: "declare const model: string;",
  tools: 'declare const tools: import("langchain-exec-process").ExecTools["tools"];',
  middleware: 'declare const middleware: import("langchain-exec-process").ExecTools["middleware"];',
  toolkit: 'declare const toolkit: import("langchain-exec-process").ExecTools["toolkit"];',
  dispose: 'declare const dispose: import("langchain-exec-process").ExecTools["dispose"];',
  createAgent: 'import { createAgent } from "langchain";',
  privateKey: "declare const privateKey: string;",
  hostKey: "declare const hostKey: string;",
};


/** The identifiers a snippet declares itself: imports, const/let/function names, destructured names. */
function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  const lists = [...code.matchAll(/(?:import(?:\s+type)?|const|let)\s*\{([^}]*)\}/g)].map((match) => match[1]!);
  for (const list of lists) for (const part of list.split(",")) names.add(part.trim().split(/\s+as\s+|:\s*/).at(-1)!.trim());
  for (const match of code.matchAll(/\b(?:const|let|function|class)\s+([A-Za-z_$][\w$]*)/g)) names.add(match[1]!);
  return names;
}

function snippetModule(code: string): string {
  const prose = code.replace(/\/\/.*$/gm, "");
  const declared = declaredNames(code);
  const context = Object.entries(CONTEXT)
    .filter(([name]) => !declared.has(name) && new RegExp(`\\b${name}\\b`).test(prose))
    .map(([, declaration]) => declaration);
  return `${context.join("\n")}\n${code}\nexport {};\n`;
}

const scratch = useScratchFolder("typecheck-");

it("compiles every TypeScript snippet of the README and the type fixture under --strict, and nothing else fails", () => {
  const work = scratch();
  const blocks = readmeTypeScriptBlocks();
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  blocks.forEach((code, index) => writeFileSync(join(work, `readme-${index + 1}.mts`), snippetModule(code)));
  // The fixture imports the sources for `npm run typecheck`; here it imports the package, as the snippets do.
  const fixture = readFileSync(join(ROOT, FIXTURE), "utf8");
  expect(fixture).toContain(FIXTURE_SOURCE_IMPORT);
  writeFileSync(join(work, "typed-api.fixture.mts"), fixture.replace(FIXTURE_SOURCE_IMPORT, '"langchain-exec-process"'));
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({
    extends: "../../tsconfig.json",
    compilerOptions: {
      strict: true, noEmit: true, noUnusedLocals: false, noUnusedParameters: false, baseUrl: ".",
      paths: { "langchain-exec-process": ["../../dist/src/index.d.ts"], "langchain-exec-process/engine": ["../../dist/src/engine/index.d.ts"] },
    },
    include: ["*.mts"],
  }));
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", work], { encoding: "utf8" });
  const report = tsc.stdout.replaceAll(`${relative(ROOT, work)}/`, "").replaceAll(`${work}/`, "");
  expect(report, blocks.map((code, index) => `readme-${index + 1}.mts:\n${snippetModule(code)}`).join("\n")).toBe("");
  expect(tsc.status).toBe(0);
}, TSC_TIMEOUT_MS);

it("declares for a snippet only the names it uses and does not declare itself", () => {
  const module = snippetModule('import { createAgent } from "langchain";\nconst agent = createAgent({ model, tools });');
  expect(module).toContain("declare const model");
  expect(module).toContain("declare const tools");
  expect(module).not.toContain("declare const middleware");
  expect(module.match(/import \{ createAgent \}/g)).toHaveLength(1);
});
