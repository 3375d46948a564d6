// Every install line the documents and `pack:all` give keeps the tools a dependency: a `--save-dev` line names the
// kit (or a dev tool) only, never the tools package or its tarball, which the agent needs at run time (issue 37).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installLines } from "../../scripts/pack-all.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const DOCUMENTS = [
  "README.md", "packages/conformance/README.md", "packages/mcp/README.md", "examples/README.md", "features/README.md",
  "conformance/PROTOCOL.md", "conformance/INTERPRETING.md",
  ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
];
const TOOLS = /(^|[\s/])langchain-exec-process(-[\d.]+\.tgz)?(\s|$)/;

/** The `npm install` commands of a text, one per line (a trailing `# comment` left out). */
function npmInstallLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/\s#.*$/, "").trim()).filter((line) => /\bnpm (install|i)\b/.test(line));
}

/** The packages a `--save-dev` (or `-D`) line installs, or none for a line that installs dependencies. */
function devPackages(line: string): string[] {
  const words = line.replace(/`/g, "").split(/\s+/);
  if (!words.some((word) => word === "--save-dev" || word === "-D")) return [];
  return words.slice(words.indexOf("install") + 1).filter((word) => !word.startsWith("-"));
}

describe("install lines", () => {
  it.each(DOCUMENTS)("%s installs the tools as a dependency on every line", (document) => {
    const lines = npmInstallLines(readFileSync(join(ROOT, document), "utf8"));
    expect(lines.flatMap(devPackages).filter((name) => TOOLS.test(` ${name} `))).toEqual([]);
  });

  it("pack:all prints the tools as a dependency and the kit alone as a devDependency", () => {
    const lines = installLines("packs/langchain-exec-process-0.1.0.tgz", "packs/exec-process-conformance-0.1.0.tgz", "packs/exec-process-mcp-0.1.0.tgz");
    expect(lines).toEqual([
      "npm install packs/langchain-exec-process-0.1.0.tgz @langchain/core langchain @langchain/langgraph",
      "npm install --save-dev packs/exec-process-conformance-0.1.0.tgz",
      "npm install packs/exec-process-mcp-0.1.0.tgz packs/langchain-exec-process-0.1.0.tgz",
    ]);
  });

  it("finds the tools on a --save-dev line, as the README had it", () => {
    const old = "npm install --save-dev ../p/exec-process-conformance-0.1.0.tgz ../p/langchain-exec-process-0.1.0.tgz   # the kit";
    expect(npmInstallLines(old).flatMap(devPackages).filter((name) => TOOLS.test(` ${name} `))).toEqual(["../p/langchain-exec-process-0.1.0.tgz"]);
  });
});
