// The tests mirror the source (issues 11 and 24): every module under src/engine/, src/executors/, src/langchain/ and src/tool-spec/
// has its test file, test/<tree>/<name>.test.ts (flat: one folder of tests per tree, named after the module's file).
// A module without one fails here unless it is exempt below, with its reason.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TREES = ["engine", "executors", "langchain", "tool-spec"] as const;

/** Modules that declare types only: there is no behaviour to test, and tsc checks their use. Verified below. */
const TYPE_ONLY: Record<string, string> = {
  "engine/types.ts": "the public data types of the engine (SPEC §0.7)",
  "engine/engine-context.ts": "the interface the actions of one engine share",
  "engine/spawn/child-handle.ts": "the interface every spawn backend presents",
};
/** Barrels that only re-export: what they export is tested where it is defined. Verified below. */
const BARRELS: Record<string, string> = {
  "executors/index.ts": "the executors' entry, re-exported by the package entry (test/engine/index.test.ts)",
  "tool-spec/index.ts": "the tool specs' entry for the MCP server (test/mcp/langchain-parity.test.ts)",
};

function modulesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modulesUnder(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [relative(join(ROOT, "src"), path)] : [];
  });
}

const modules = TREES.flatMap((tree) => modulesUnder(join(ROOT, "src", tree))).sort();
const treeOf = (module: string): string => module.split("/")[0] ?? "";
const testFileOf = (module: string): string => `test/${treeOf(module)}/${basename(module, ".ts")}.test.ts`;
const testFiles = new Set(TREES.flatMap((tree) =>
  readdirSync(join(ROOT, "test", tree)).filter((name) => name.endsWith(".test.ts")).map((name) => `test/${tree}/${name}`)));

describe("test/ mirrors src/", () => {
  it.each(modules.filter((module) => !(module in TYPE_ONLY) && !(module in BARRELS)))("%s has its test file", (module) => {
    expect(testFiles.has(testFileOf(module)), `add ${testFileOf(module)}`).toBe(true);
  });

  it("names no two modules of a tree alike, so that the flat test folder can hold one file per module", () => {
    const names = modules.map(testFileOf);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("exempts only modules that exist", () => {
    for (const module of [...Object.keys(TYPE_ONLY), ...Object.keys(BARRELS)]) expect(modules, module).toContain(module);
  });

  it.each(Object.keys(TYPE_ONLY))("exempts %s rightly: it exports no value at run time", async (module) => {
    const loaded = (await import(join(ROOT, "src", module))) as Record<string, unknown>;
    expect(Object.keys(loaded)).toEqual([]);
  });

  it.each(Object.keys(BARRELS))("exempts %s rightly: it holds nothing but re-exports", (module) => {
    const statements = readFileSync(join(ROOT, "src", module), "utf8").split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("//"));
    expect(statements.filter((line) => !/^export (type )?\{[^}]*\} from "[^"]+";$/.test(line))).toEqual([]);
  });
});
