// No module of src/ reaches itself through its imports, type-only imports included (issue 24: outcome ↔ session,
// normalize-process ↔ poll-action were such circles). A circle means two modules own one concept between them.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");
const IMPORT = /^\s*(?:import|export)\b[^"';]*?from\s+["'](\.[^"']+)["']/gm;

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((match) => resolve(dirname(file), (match[1] ?? "").replace(/\.js$/, ".ts")));
}

/** The import graph of `files`: each file and the files among them it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
}

/** The circles a depth-first walk of `graph` closes, each from its first module back to it. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

it("src/ has no import circle", () => {
  const cycles = cyclesOf(importGraph(modules(SRC)));
  expect(cycles.map((cycle) => cycle.map((file) => relative(SRC, file)).join(" → "))).toEqual([]);
});

it("finds the circles of a graph that has them (the check can fail)", () => {
  const graph = new Map([["a", ["b"]], ["b", ["c", "a"]], ["c", ["c"]], ["d", ["a"]]]);
  expect(cyclesOf(graph)).toEqual([["c", "c"], ["a", "b", "a"]]);
  expect(cyclesOf(new Map([["a", ["b"]], ["b", []]]))).toEqual([]);
});
