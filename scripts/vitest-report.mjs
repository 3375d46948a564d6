// Reads vitest's JSON report (`--reporter=json`) for npm test's totals: which tests failed, and which passed only on
// their retry. Both are printed just above the totals, where a CI record that keeps only the run's end still shows
// them; each step's own output, printed while other steps ran, may be far above it.
import { relative } from "node:path";

/** The longest error line printed; a longer one is cut. */
const LINE_MAX = 300;

/** Failed tests as `file > test: first line of its error`; a file that failed outside its tests, with its error. */
export function failedTests(report, root) {
  return (report.testResults ?? []).flatMap((file) => {
    const path = repositoryPath(file.name, root);
    const tests = (file.assertionResults ?? []).filter((test) => test.status === "failed")
      .map((test) => `${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    return tests.length > 0 || file.status !== "failed" ? tests : [`${path}: ${firstLine(file.message)}`];
  });
}

/**
 * Tests that passed on a retry (`--retry`), as `file > test (first: first line of the failed attempt's error)`:
 * vitest keeps a failed attempt's error on a test that then passed.
 */
export function testsPassedOnRetry(report, root) {
  return (report.testResults ?? []).flatMap((file) => (file.assertionResults ?? [])
    .filter((test) => test.status === "passed" && (test.failureMessages?.length ?? 0) > 0)
    .map((test) => `${repositoryPath(file.name, root)} > ${test.fullName} (first: ${firstLine(test.failureMessages[0])})`));
}

/**
 * The first error line (`Error: …`, `TypeError: …`) of a run's printed output, without its colours: what a run that
 * failed outside its tests (an unhandled error, a global setup) or wrote no report failed on.
 */
export function firstErrorLine(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const line = plain.match(/^\s*((?:\w+)?Error\b[^\n]*)/m)?.[1]?.trim();
  return line === undefined ? "no error line in its output" : cut(line);
}

/**
 * A test file's path from the repository's root, also for a run that saw the clone at another place (the unprivileged
 * run mounts it elsewhere): from its last `test/` folder then.
 */
function repositoryPath(file, root) {
  const path = relative(root, file);
  const fromTest = file.lastIndexOf("/test/");
  return path.startsWith("..") && fromTest >= 0 ? file.slice(fromTest + 1) : path;
}

function firstLine(text = "") {
  return cut(text.split("\n").find((part) => part.trim() !== "")?.trim() ?? "no message");
}

function cut(line) {
  return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX)}…` : line;
}
