/** The part of vitest's JSON report that npm test reads. */
export interface VitestReport {
  testResults?: Array<{
    name: string; status: string; message?: string;
    assertionResults?: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
}
/** Failed tests as `file > test: first line of its error`; a file that failed outside its tests, with its error. */
export function failedTests(report: VitestReport, root: string): string[];
/** Tests that passed on a retry, as `file > test (first: first line of the failed attempt's error)`. */
export function testsPassedOnRetry(report: VitestReport, root: string): string[];
/** The first error line (`Error: …`) of a run's printed output, without its colours. */
export function firstErrorLine(output: string): string;
