// scripts/typecheck-and-lint.mjs: npm test's type check and type-aware lint over one program. Each check must still
// fail on its own findings, and the lint must see types (a floating promise is found only with them).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { BOTH_FAILED, exitStatus, LINT_FAILED, TYPECHECK_FAILED } from "../../scripts/typecheck-and-lint.mjs";
import { ROOT, useScratchFolder } from "../helpers/readme.js";

const scratch = useScratchFolder("typecheck-and-lint-");

const CLEAN = "export async function later(): Promise<number> {\n  return 1;\n}\n";
const TYPE_ERROR = 'export const count: number = "three";\n';
// Only a type-aware rule sees that later() returns a promise nobody waits for.
const FLOATING = 'import { later } from "./clean.js";\n\nexport function start(): void {\n  later();\n}\n';

function project(files: Record<string, string>): string {
  const dir = join(scratch(), `p${Math.random().toString(36).slice(2)}`);
  spawnSync("mkdir", ["-p", dir]);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [] },
    include: ["*.ts"],
  }));
  writeFileSync(join(dir, "eslint.config.mjs"), [
    'import tseslint from "typescript-eslint";',
    "export default tseslint.config({ files: [\"**/*.ts\"], extends: [tseslint.configs.base],",
    '  rules: { "@typescript-eslint/no-floating-promises": "error" } });',
  ].join("\n"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function check(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts/typecheck-and-lint.mjs"), dir], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

it("fails both checks on a project with a type error and a floating promise, which the lint finds with the program's types", () => {
  const result = check(project({ "clean.ts": CLEAN, "wrong.ts": TYPE_ERROR, "floating.ts": FLOATING }));
  expect(result.status, result.output).toBe(BOTH_FAILED);
  for (const text of ["TS2322", "typecheck: 1 error(s)", "no-floating-promises", "lint: 1 finding(s)"]) expect(result.output).toContain(text);
}, 120_000);

it("fails the lint alone when the lint cannot run, and keeps the type check's outcome", () => {
  const result = check(project({ "clean.ts": CLEAN, "eslint.config.mjs": 'throw new Error("no configuration here");\n' }));
  expect(result.status, result.output).toBe(LINT_FAILED);
  for (const text of ["typecheck: no errors", "lint: could not run", "no configuration here"]) expect(result.output).toContain(text);
}, 120_000);

it("tells npm test which check failed by its exit status (the repository's own run is the clean case)", () => {
  expect([exitStatus(true, true), exitStatus(false, true), exitStatus(true, false), exitStatus(false, false)])
    .toEqual([0, TYPECHECK_FAILED, LINT_FAILED, BOTH_FAILED]);
  expect(new Set([TYPECHECK_FAILED, LINT_FAILED, BOTH_FAILED, 0, 1]).size).toBe(5); // a crash (1) is neither
});

it("leaves out of the repository's lint the folders tests make in it while the lint may run (as .gitignore does)", async () => {
  const { ESLint } = await import("eslint");
  const eslint = new ESLint({ cwd: ROOT });
  for (const path of [".scratch/typecheck-x/readme-1.mts", ".scratch/p1/wrong.ts", ".kit-adapter-example-AbC123/my-adapter.ts"]) {
    expect(await eslint.isPathIgnored(join(ROOT, path)), path).toBe(true);
  }
  expect(await eslint.isPathIgnored(join(ROOT, "src/index.ts"))).toBe(false);
});
