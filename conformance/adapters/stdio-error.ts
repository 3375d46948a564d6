// The one error of the stdio client: what went wrong with the implementation, as data (`failure`) and as a
// message that names it and ends with the implementation's last words on stderr.

/** How much of the implementation's stderr an error carries. */
export const STDERR_TAIL_BYTES = 2048;
/** How much of its stdout an error about an exit carries: its last answers, or a partial line it left. */
export const STDOUT_TAIL_BYTES = 1024;

export type ProtocolFailure =
  | "timeout" | "malformed-line" | "exited" | "ended" | "error-answer" | "bad-result" | "not-exiting";

export class StdioProtocolError extends Error {
  override name = "StdioProtocolError";
  constructor(readonly failure: ProtocolFailure, headline: string, readonly stderrTail: string, readonly stdoutTail?: string) {
    super(`${headline}\n${stdoutTail === undefined ? "" : describeStdout(stdoutTail)}${describeStderr(stderrTail)}`);
  }
}

function describeStdout(tail: string): string {
  if (tail === "") return "(the implementation wrote nothing to stdout)\n";
  const unterminated = tail.endsWith("\n") ? "" : " (the last line has no line feed: it was never finished)";
  return `--- last lines of the implementation's stdout${unterminated} ---\n${tail.replace(/\n$/, "")}\n---\n`;
}

function describeStderr(tail: string): string {
  if (tail.trim() === "") return "(the implementation wrote nothing to stderr)";
  return `--- last ${STDERR_TAIL_BYTES} bytes of the implementation's stderr ---\n${tail.replace(/\n$/, "")}\n---`;
}
