// The kit README's adapter examples (issue 37 item 7), as a new user copies them: the JavaScript one runs under the
// kit and passes the scenarios it takes part in, the TypeScript one type-checks against the kit's exported types.
// Both import the package names a user's project has; here they resolve to this repository (the JavaScript one
// through the package's self-reference, the TypeScript one through the `paths` of a throwaway tsconfig, to the built
// declarations).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const readme = readFileSync(join(root, "packages/conformance/README.md"), "utf8");
/** The README's code block whose first line is `// <name>`. */
const example = (name: string): string => {
  const block = [...readme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.startsWith(`// ${name}\n`));
  if (!block) throw new Error(`the kit README has no example named ${name}`);
  return block;
};
// Inside the repository, so that "langchain-exec-process/engine" resolves to the package itself.
const dir = mkdtempSync(join(root, ".kit-adapter-example-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("runs the README's JavaScript adapter under the kit, and its scenarios pass", () => {
  const adapter = join(dir, "my-adapter.mjs");
  writeFileSync(adapter, example("my-adapter.mjs"));
  const run = spawnSync(process.execPath, [
    join(root, "conformance/bin.mjs"), "--adapter", adapter, "--paths", "features/poll.feature", "--tags", "@POLL-01 or @POLL-03",
    // One worker, the kit's own process: three worker processes loading the kit cost more than the scenarios.
    "--parallel", "1", "--report", join(dir, "report"),
  ], { cwd: root, encoding: "utf8", timeout: 120_000 });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("3 scenarios (3 passed)");
}, 150_000);

it("type-checks the README's TypeScript adapter against the kit's exported types", () => {
  writeFileSync(join(dir, "my-adapter.ts"), example("my-adapter.ts"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", skipLibCheck: true,
      types: ["node"], typeRoots: [join(root, "node_modules/@types")],
      // The built declarations (test/global-setup.ts builds dist/), as an installed package has them: checking the
      // sources instead type-checks the whole repository (over 60 s on a loaded machine).
      paths: {
        "exec-process-conformance": [join(root, "dist/conformance/index.d.ts")],
        "langchain-exec-process/engine": [join(root, "dist/src/engine/index.d.ts")],
      },
    },
    files: ["my-adapter.ts"],
  }));
  const run = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  expect(run.stdout + run.stderr).toBe("");
  expect(run.status).toBe(0);
}, 120_000);
