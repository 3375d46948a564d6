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

it("tells npm test which check failed by its exit status (the repository's own run is the clean case)", () => {
  expect([exitStatus(true, true), exitStatus(false, true), exitStatus(true, false), exitStatus(false, false)])
    .toEqual([0, TYPECHECK_FAILED, LINT_FAILED, BOTH_FAILED]);
  expect(new Set([TYPECHECK_FAILED, LINT_FAILED, BOTH_FAILED, 0, 1]).size).toBe(5); // a crash (1) is neither
});
