// `npm run bench`: runs every row in a fresh node process, prints the table and writes reports/bench.json.
//   --with-conformance   also time the conformance suite (takes minutes)
//   --only a,b           run only these rows (ids: see rows.ts)
//   --quick              fewer repetitions (a smoke run, not for the record)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { RowResult } from "./bench-kit.js";
import { buildJsonReport, formatReport, type RowFailure } from "./report.js";
import { ROWS } from "./rows.js";

const REPORT_FILE = "reports/bench.json";
const ROW_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "run-row.ts");

const { values } = parseArgs({
  options: { "with-conformance": { type: "boolean" }, only: { type: "string" }, quick: { type: "boolean" } },
});
const only = values.only?.split(",").map((id) => id.trim());
const unknown = only?.filter((id) => !ROWS.some((row) => row.id === id)) ?? [];
if (unknown.length > 0) throw new Error(`--only: unknown rows ${unknown.join(", ")} (known: ${ROWS.map((r) => r.id).join(", ")})`);
const selected = ROWS.filter((row) => (only ? only.includes(row.id) : !row.optional || values["with-conformance"]));

function runRow(id: string, outFile: string): Promise<number | null> {
  const args = ["--expose-gc", "--import", "tsx", ROW_SCRIPT, id, outFile, ...(values.quick ? ["--quick"] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    child.once("error", reject);
    child.once("close", resolve);
  });
}

const scratch = mkdtempSync(join(tmpdir(), "bench-report-"));
const results: RowResult[] = [];
const failures: RowFailure[] = [];
const loadBefore = loadavg();
for (const row of selected) {
  const outFile = join(scratch, `${row.id}.json`);
  process.stderr.write(`bench: ${row.id} …\n`);
  const code = await runRow(row.id, outFile);
  try {
    results.push(JSON.parse(readFileSync(outFile, "utf8")) as RowResult);
  } catch {
    failures.push({ id: row.id, error: `exited with ${code} and wrote no result` });
  }
}
const machine = {
  node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg(),
  quick: values.quick === true,
};
rmSync(scratch, { recursive: true, force: true });
console.log(formatReport(results, failures));
mkdirSync(dirname(REPORT_FILE), { recursive: true });
writeFileSync(REPORT_FILE, `${JSON.stringify(buildJsonReport(results, failures, machine), null, 2)}\n`);
const formatLoad = (load: number[]): string => load.map((l) => l.toFixed(1)).join(" ");
console.log(`\nwritten to ${REPORT_FILE} (load average before ${formatLoad(loadBefore)}, after ${formatLoad(machine.loadavgAfter)}; ${cpus().length} cores)`);
process.exitCode = failures.length > 0 ? 1 : 0;
