// The one error of the stdio client: what went wrong with the implementation, as data (`failure`) and as a
// message that names it and ends with the implementation's last words on stderr.

/** How much of the implementation's stderr an error carries. */
export const STDERR_TAIL_BYTES = 2048;

export type ProtocolFailure =
  | "timeout" | "malformed-line" | "exited" | "ended" | "error-answer" | "bad-result" | "not-exiting";

export class StdioProtocolError extends Error {
  override name = "StdioProtocolError";
  constructor(readonly failure: ProtocolFailure, headline: string, readonly stderrTail: string) {
    super(`${headline}\n${describeStderr(stderrTail)}`);
  }
}

function describeStderr(tail: string): string {
  if (tail.trim() === "") return "(the implementation wrote nothing to stderr)";
  return `--- last ${STDERR_TAIL_BYTES} bytes of the implementation's stderr ---\n${tail.replace(/\n$/, "")}\n---`;
}
