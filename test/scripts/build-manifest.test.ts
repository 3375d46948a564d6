// The repository's entry scripts (the kit, its stdio server, the MCP server) use dist/ only while the build matches
// the sources (scripts/build-manifest.mjs).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { isBuildFresh, repositoryModule, sourceInputs, writeBuildManifest } from "../../scripts/build-manifest.mjs";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "build-manifest-"));
  for (const dir of ["src/engine", "conformance/catalog", "step-definitions", "dist"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "src/engine/a.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "conformance/catalog/rules.json"), "[]\n");
  writeFileSync(join(root, "step-definitions/steps.ts"), "export {};\n");
  writeBuildManifest(root, sourceInputs(root));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("isBuildFresh", () => {
  it("is true while the sources are as they were at build time", () => {
    expect(Object.keys(sourceInputs(root))).toEqual(["conformance/catalog/rules.json", "src/engine/a.ts", "step-definitions/steps.ts"]);
    expect(isBuildFresh(root)).toBe(true);
  });

  it.each([
    ["a source was edited", () => utimesSync(join(root, "src/engine/a.ts"), new Date(), new Date(Date.now() + 5_000))],
    ["a source was added", () => writeFileSync(join(root, "conformance/b.ts"), "export {};\n")],
    ["an entry script or plugin was added", () => writeFileSync(join(root, "conformance/plugin.mjs"), "export default {};\n")],
    ["a source was deleted", () => rmSync(join(root, "step-definitions/steps.ts"))],
    ["a feature file was added (the kit's package and its scenario cache are made from them)", () => {
      mkdirSync(join(root, "features"));
      writeFileSync(join(root, "features/x.feature"), "Feature: x\n");
    }],
    ["there is no build", () => rmSync(join(root, "dist"), { recursive: true })],
  ])("is false when %s", (_label, change) => {
    change();
    expect(isBuildFresh(root)).toBe(false);
  });

  it("ignores files that are not sources", () => {
    writeFileSync(join(root, "conformance/notes.md"), "# notes\n");
    expect(isBuildFresh(root)).toBe(true);
  });
});

describe("repositoryModule", () => {
  it("names the built module while the build is fresh, without a word", async () => {
    const said: string[] = [];
    const module = await repositoryModule(root, "dist/conformance/cli.js", pathToFileURL(join(root, "conformance/cli.ts")), () => said.push("stale"));
    expect(module).toBe(pathToFileURL(join(root, "dist/conformance/cli.js")).href);
    expect(said).toEqual([]);
  });
});
