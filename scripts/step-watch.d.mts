// Types of scripts/step-watch.mjs.
export const OUTPUT_GRACE_MS: number;
export const END_GRACE_MS: number;
export interface StepResult {
  /** The exit status; null when a signal ended it. */
  status: number | null;
  /** What was found and ended when the step did not end by itself. */
  problem?: string;
}
export function runStep(command: string, args: string[], options: {
  outputFile?: string;
  onOutput?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
  priority?: number;
  deadlineMs: number;
  outputGraceMs?: number;
}): Promise<StepResult>;
export function descendants(...roots: number[]): number[];
export function fdTargets(pid: number, fds: number[]): string[];
export function holdersOf(targets: string[]): number[];
export function describeProcesses(list: number[]): string[];
export function endStep(top: number, list: number[], graceMs: number): Promise<void>;
