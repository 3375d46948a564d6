// Types of scripts/step-watch.mjs.
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
