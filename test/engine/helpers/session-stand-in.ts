// Stand-ins for a Session, for the modules that only read one (result builders, session views, input actions).
// Typed with Pick<Session, …> so that a renamed Session field fails the type check here instead of silently.
import { OutputBuffer } from "../../../src/engine/output-buffer.js";
import type { Session } from "../../../src/engine/session.js";

/** Output with the given text in the aggregate; `cap` small enough to discard makes `discarded` true (OUT-09). */
export function outputOf(text: string, cap = 200_000): OutputBuffer {
  const output = new OutputBuffer({ aggregateCap: cap, pendingCap: cap });
  output.append("stdout", text);
  return output;
}

export type FinishedFields = Pick<Session, "id" | "pid" | "startedAt" | "endedAt" | "cwd" | "exitCode" | "exitSignal"
  | "exitReason" | "output" | "name">;

/** A session that exited with code 0 and printed nothing, with `fields` laid over it. */
export function finishedSession(fields: Partial<FinishedFields> = {}): Session {
  const stand: FinishedFields = {
    id: "calm-brook", pid: 4242, startedAt: 1_000, endedAt: 1_250, cwd: "/work/dir", exitCode: 0, exitSignal: null,
    exitReason: "exit", output: outputOf(""), name: undefined, ...fields,
  };
  return stand as unknown as Session;
}
