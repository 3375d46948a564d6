// The tests mirror the source (issue 11): every module under src/engine/ has its test file, test/engine/<name>.test.ts
// (flat: one folder of engine tests, named after the module's file). A module without one fails here unless it is
// exempt below, with its reason.
import { readdirSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SRC = join(ROOT, "src/engine");
const TESTS = join(ROOT, "test/engine");

/** Modules that declare types only: there is no behaviour to test, and tsc checks their use. Verified below. */
const TYPE_ONLY: Record<string, string> = {
  "types.ts": "the public data types of the engine (SPEC §0.7)",
  "engine-context.ts": "the interface the actions of one engine share",
  "spawn/child-handle.ts": "the interface every spawn backend presents",
};

function modulesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modulesUnder(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [relative(SRC, path)] : [];
  });
}

const modules = modulesUnder(SRC).sort();
const testFiles = new Set(readdirSync(TESTS).filter((name) => name.endsWith(".test.ts")));
const testFileOf = (module: string): string => `${basename(module, ".ts")}.test.ts`;

describe("test/engine mirrors src/engine", () => {
  it.each(modules.filter((module) => !(module in TYPE_ONLY)))("%s has its test file", (module) => {
    expect(testFiles.has(testFileOf(module)), `add test/engine/${testFileOf(module)}`).toBe(true);
  });

  it("names no two modules alike, so that the flat test folder can hold one file per module", () => {
    const names = modules.map(testFileOf);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("exempts only modules that exist", () => {
    for (const module of [...Object.keys(TYPE_ONLY)]) expect(modules, module).toContain(module);
  });

  it.each(Object.keys(TYPE_ONLY))("exempts %s rightly: it exports no value at run time", async (module) => {
    const loaded = (await import(join(SRC, module))) as Record<string, unknown>;
    expect(Object.keys(loaded)).toEqual([]);
  });
});
