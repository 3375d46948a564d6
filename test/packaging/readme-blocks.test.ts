// The README's quick start and LangChain blocks run as written (issue 37), as an ES module and as CommonJS: each
// block is stripped of its types (esbuild), given a scripted model where it names `model`, and run with plain node
// in a folder of this package, so that "langchain-exec-process" is the package itself (its build). The wakeOnExit
// and watch blocks have tests of their own (test/langchain/readme-wake.test.ts, readme-watch.test.ts).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { ROOT, typeScriptBlocks, useScratchFolder } from "../helpers/readme.js";

const RUN_TIMEOUT_MS = 60_000;

/** The TypeScript blocks of the README section whose heading is `heading`. */
function blocksOf(heading: string): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`the README has no section ${heading}`);
  const end = readme.indexOf("\n## ", start + heading.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return typeScriptBlocks(section);
}

/** A scripted model for a block that names `model` without making one: it answers once, "started". */
const MODEL = {
  imports: ['import { fakeModel } from "langchain";', 'import { AIMessage } from "@langchain/core/messages";'],
  declaration: 'const model = fakeModel().respond(new AIMessage("started"));',
};

/** The block as an ES module (types stripped), with the scripted model when it needs one. */
function asModule(block: string): string {
  const code = transformSync(block, { loader: "ts", format: "esm" }).code;
  const needsModel = /\bmodel\b/.test(block.replace(/\/\/.*$/gm, "")) && !/\b(const|let)\s+model\b/.test(block);
  return needsModel ? [...MODEL.imports, MODEL.declaration, code].join("\n") : code;
}

/** The same as CommonJS: imports become require() calls, and the rest runs in an async function (no top-level await). */
function asCommonJs(module: string): string {
  const lines = module.split("\n");
  const requires = lines.filter((line) => line.startsWith("import ")).map((line) => {
    const match = /^import \{([^}]*)\} from ("[^"]+");$/.exec(line);
    if (!match) throw new Error(`an import this test cannot turn into require(): ${line}`);
    return `const {${match[1]!.replace(/\s+as\s+/g, ": ")}} = require(${match[2]!});`;
  });
  const body = lines.filter((line) => !line.startsWith("import ")).join("\n");
  return `${requires.join("\n")}\n(async () => {\n${body}\n})().catch((error) => { console.error(error); process.exitCode = 1; });\n`;
}

const work = useScratchFolder("readme-blocks-");

function run(name: string, source: string): { status: number | null; stdout: string; stderr: string } {
  const file = join(work(), name);
  writeFileSync(file, source);
  const child = spawnSync(process.execPath, [file], { cwd: work(), encoding: "utf8", timeout: RUN_TIMEOUT_MS, env: { ...process.env, SHELL: "/bin/sh" } });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

const BLOCKS = [
  { name: "quick-start", block: blocksOf("## Quick start")[0]!, output: "" },
  { name: "langchain-agent", block: blocksOf("## LangChain / LangGraph")[0]!, output: "" },
  { name: "typed-tools", block: blocksOf("## LangChain / LangGraph")[1]!, output: "built" },
];

describe("the README's blocks, run as written", () => {
  it("has the blocks this test runs", () => {
    expect(BLOCKS[0]!.block).toContain("createSessionEngine");
    expect(BLOCKS[1]!.block).toContain("createAgent({ model, tools, middleware: [middleware] })");
    expect(BLOCKS[2]!.block).toContain("toolkit.exec.invoke");
  });

  for (const { name, block, output } of BLOCKS) {
    it.each([["an ES module", ".mjs"], ["CommonJS", ".cjs"]] as const)(`runs the ${name} block as %s`, (_kind, extension) => {
      const module = asModule(block);
      const result = run(`${name}${extension}`, extension === ".mjs" ? module : asCommonJs(module));
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      if (output) expect(result.stdout).toContain(output);
      else expect(result.stdout).toBe("");
    }, RUN_TIMEOUT_MS);
  }
});
