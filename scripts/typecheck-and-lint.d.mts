/** The exit statuses of a run that found something: type errors, lint findings, or both. */
export const TYPECHECK_FAILED: number;
export const LINT_FAILED: number;
export const BOTH_FAILED: number;
/** The exit status for the two checks' outcomes: 0 when both passed. */
export function exitStatus(typed: boolean, linted: boolean): number;
