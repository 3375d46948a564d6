// Row 7 (optional, --with-conformance): wall time of the conformance suite against the reference implementation.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RowOptions, RowResult } from "./bench-kit.js";
import { summarize } from "./stats.js";

const REPORT_DIR = "reports/bench-conformance";
const PARALLEL = "4";

function junitCounts(xml: string): { passed: number; failed: number; skipped: number } {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const testcase of xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? []) {
    if (/<(failure|error)\b/.test(testcase)) counts.failed += 1;
    else if (/<skipped\b/.test(testcase)) counts.skipped += 1;
    else counts.passed += 1;
  }
  return counts;
}

export async function benchConformance(_options: RowOptions): Promise<RowResult> {
  const started = performance.now();
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["conformance/bin.mjs", "--parallel", PARALLEL, "--report", REPORT_DIR], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("close", resolve);
  });
  const wallMs = performance.now() - started;
  const junit = join(REPORT_DIR, "junit.xml");
  const counts = existsSync(junit) ? junitCounts(readFileSync(junit, "utf8")) : undefined;
  return {
    id: "conformance", title: `conformance suite, --parallel ${PARALLEL}`, metric: "wall time", unit: "ms", warmup: 0,
    engine: summarize([wallMs]), baseline: null, ratio: null, targets: [],
    extra: { exitCode, ...counts },
    notes: ["Reported only: one run, no baseline (the suite has no raw equivalent)."],
  };
}
