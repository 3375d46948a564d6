// The README's code blocks as tests read them, and the scratch folder (inside the repository, so that the package
// resolves by its own name) where they are written to run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

export const ROOT = new URL("../..", import.meta.url).pathname;

/** The ```ts blocks of a Markdown text, in order. */
export function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
}

/** The ```ts blocks of the repository's README. */
export const readmeTypeScriptBlocks = (): string[] => typeScriptBlocks(readFileSync(join(ROOT, "README.md"), "utf8"));

/** A new folder under .scratch/ for the tests of the calling file, removed after them; returns its current path. */
export function useScratchFolder(prefix: string): () => string {
  let folder = "";
  beforeAll(() => {
    mkdirSync(join(ROOT, ".scratch"), { recursive: true });
    folder = mkdtempSync(join(ROOT, ".scratch", prefix));
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return () => folder;
}
