// Stand-ins for a session, for the modules that only read one (result builders, session views, list, log): plain
// SessionView objects, so that a renamed field fails the type check here instead of silently.
import { OutputBuffer, viewOf, type OutputView } from "../../../src/engine/output-buffer.js";
import { outcomeStatusOf } from "../../../src/engine/outcome.js";
import type { SessionView } from "../../../src/engine/session.js";

/** Output with the given text in the aggregate; `cap` small enough to discard makes `discarded` true (OUT-09). */
export function outputOf(text: string, cap = 200_000): OutputView {
  const output = new OutputBuffer({ aggregateCap: cap, pendingCap: cap });
  output.append("stdout", text);
  return viewOf(output);
}

/** The facts a stand-in is built from; what follows from them (outcome, timedOut, …) is derived as Session does. */
export type StandInFields = Pick<SessionView, "id" | "pid" | "startedAt" | "endedAt" | "cwd" | "exitCode" | "exitSignal"
  | "exitReason" | "output" | "name" | "stdinWritable" | "lastOutputAt" | "outputHolders" | "confirmedStop"> & {
  idleMs: number;
};

/** A background session that exited with code 0 and printed nothing, with `fields` laid over it. */
export function finishedSession(fields: Partial<StandInFields> = {}): SessionView {
  const facts: StandInFields = {
    id: "calm-brook", pid: 4242, startedAt: 1_000, endedAt: 1_250, cwd: "/work/dir", exitCode: 0, exitSignal: null,
    exitReason: "exit", output: outputOf(""), name: undefined, stdinWritable: false, lastOutputAt: 1_000,
    outputHolders: [], confirmedStop: false, idleMs: 0, ...fields,
  };
  const { idleMs, ...view } = facts;
  return {
    ...view, seq: 1, command: "true", scopeKey: "scope", state: facts.endedAt === undefined ? "running" : "finished",
    visibility: "background", pty: false, expiresAt: undefined, cursorKeyMode: "normal", addressable: true,
    backgrounded: true, listed: true, announcesExit: facts.exitReason !== "manual-cancel", stoppable: true,
    timedOut: facts.exitReason === "overall-timeout", outcomeStatus: outcomeStatusOf(facts), idleMs: () => idleMs,
  };
}
