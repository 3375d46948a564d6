// `exec-process-conformance compare <report-dir>... --out <dir>`: several kit runs side by side.
import { parseArgs } from "node:util";
import { writeComparison } from "./report/write-comparison.js";

export const COMPARE_USAGE = `Usage: exec-process-conformance compare <report-dir>... --out <dir> [--name <title>]...

  <report-dir>    the --report directory of a kit run (it holds compliance.json); give two or more
  --out <dir>     where comparison.html and comparison.md are written
  --name <title>  the column title of each run, once per <report-dir> and in the same order
                  (default: the implementation's name recorded in the run, e.g. its --command)`;

export function compareMain(argv: string[]): number {
  let dirs: string[];
  let out: string;
  let names: string[];
  try {
    const { values, positionals } = parseArgs({
      args: argv, allowPositionals: true, options: { out: { type: "string" }, name: { type: "string", multiple: true }, help: { type: "boolean" } },
    });
    if (values.help) {
      console.log(COMPARE_USAGE);
      return 0;
    }
    if (positionals.length < 2) throw new Error(`compare takes two or more report directories (got ${positionals.length}).`);
    if (!values.out) throw new Error("compare needs --out <dir>: where to write comparison.html and comparison.md.");
    names = values.name ?? [];
    dirs = positionals;
    out = values.out;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${COMPARE_USAGE}`);
    return 2;
  }
  try {
    const { htmlPath, markdownPath, comparison } = writeComparison(dirs, out, names);
    console.log(`Comparison of ${comparison.runs.length} runs: ${htmlPath} and ${markdownPath} (${comparison.disagreements} ${comparison.disagreements === 1 ? "rule" : "rules"} where they disagree)`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
}
