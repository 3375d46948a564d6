#!/usr/bin/env node
// npm test's type check and lint in one process over one TypeScript program (issue 36): `tsc --noEmit` and the
// type-aware lint (eslint.config.mjs) each built and checked the whole program, about 18 and 31 s of CPU. Here the
// type check checks the program of tsconfig.json, and the lint reads its types from that same checked program.
// Prints tsc's diagnostics, then eslint's findings, and exits with 0 or one of the statuses below; any other status
// is a crash of the script itself.
import { fileURLToPath, pathToFileURL } from "node:url";

/** The exit statuses of a run that found something (scripts/test-all.mjs tells the two checks apart by them). */
export const TYPECHECK_FAILED = 17;
export const LINT_FAILED = 18;
export const BOTH_FAILED = 19;

/** Files the lint covers outside tsconfig.json's program (eslint.config.mjs, allowDefaultProject). */
const OUTSIDE_PROGRAM = ["vitest.config.ts"];

/** The project, when run: the repository, or the folder given as the only argument (its test's small projects). */
let root = "";

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  root = process.argv[2] ? `${process.argv[2].replace(/\/$/, "")}/` : fileURLToPath(new URL("..", import.meta.url));
  process.exitCode = await main();
}

async function main() {
  const { default: ts } = await import("typescript");
  const program = createProgram(ts);
  const typed = typeCheck(ts, program);
  const outside = OUTSIDE_PROGRAM.map((file) => `${root}${file}`).filter((path) => ts.sys.fileExists(path));
  const linted = await lint([program, ...(outside.length > 0 ? [ts.createProgram(outside, program.getCompilerOptions())] : [])]);
  return exitStatus(typed, linted);
}

/** The exit status for the two checks' outcomes. */
export function exitStatus(typed, linted) {
  return typed && linted ? 0 : typed ? LINT_FAILED : linted ? TYPECHECK_FAILED : BOTH_FAILED;
}

function createProgram(ts) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => report(ts, [diagnostic]) };
  const parsed = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, host);
  if (!parsed) throw new Error("tsconfig.json could not be read");
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
}

/** Prints the program's diagnostics as tsc does; returns whether there are none. */
function typeCheck(ts, program) {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  report(ts, diagnostics);
  console.log(`typecheck: ${diagnostics.length === 0 ? "no errors" : `${diagnostics.length} error(s)`}`);
  return diagnostics.length === 0;
}

function report(ts, diagnostics) {
  if (diagnostics.length === 0) return;
  process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => "\n",
  }));
}

/** Lints the repository with the types of `programs`; prints the findings; returns whether there are none. */
async function lint(programs) {
  const { ESLint } = await import("eslint");
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { files: ["**/*.ts"], languageOptions: { parserOptions: { projectService: false, programs } } },
  });
  let results;
  try {
    results = await eslint.lintFiles(["."]);
  } catch (error) {
    console.log(`lint: could not run: ${error.message}`); // the type check's outcome stands
    return false;
  }
  const count = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
  const text = (await eslint.loadFormatter("stylish")).format(results);
  if (text) console.log(text);
  console.log(`lint: ${count === 0 ? "no findings" : `${count} finding(s)`}`);
  return count === 0;
}
