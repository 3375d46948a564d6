// Sessions the process-tool fuzzing aims at. They tick steadily, so a fuzzed poll `timeout` never waits long, and
// the PTY one ignores INT, QUIT and TSTP, so fuzzed control keys cannot stop it. Ended ones are started again.
import fc from "fast-check";
import type { LocalSessionEngine } from "../../src/engine/index.js";
import { ctx, pollUntilDone, sessionIdOf } from "./helpers.js";
import { corrupted, field, fuzzNumber, fuzzString, sizedString } from "./fuzz-arbitraries.js";

const TICKER = "while :; do echo tick; sleep 0.2; done";
const PTY_TICKER = `trap '' INT QUIT TSTP; ${TICKER}`;

export type TargetName = "ticker" | "pty" | "finished";
export const TARGET_NAMES: readonly TargetName[] = ["ticker", "pty", "finished"];

export class FuzzTargets {
  readonly ids = new Map<TargetName, string>();
  readonly #engine: LocalSessionEngine;

  constructor(engine: LocalSessionEngine) {
    this.#engine = engine;
  }

  /** Starts every target that is no longer there in the state it should be in. */
  async ensure(): Promise<void> {
    const list = await this.#engine.process({ action: "list" }, ctx);
    const listed = list.details["sessions"] as Array<{ sessionId: string; status: string }>;
    const statusOf = (id: string | undefined): string | undefined => listed.find((s) => s.sessionId === id)?.status;
    if (statusOf(this.ids.get("ticker")) !== "running") this.ids.set("ticker", await this.#start(TICKER, false));
    if (statusOf(this.ids.get("pty")) !== "running") this.ids.set("pty", await this.#start(PTY_TICKER, true));
    const finished = statusOf(this.ids.get("finished"));
    if (finished === undefined || finished === "running") {
      const id = await this.#start("echo done; exit 4", false);
      await pollUntilDone(this.#engine, id);
      this.ids.set("finished", id);
    }
  }

  async #start(command: string, pty: boolean): Promise<string> {
    return sessionIdOf(await this.#engine.exec({ command, background: true, pty }, ctx));
  }
}

const ACTIONS = ["list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"] as const;
const KEY_TOKENS = ["Enter", "C-c", "C-z", "C-\\", "Up", "C-Up", "M-x", "S-Tab", "F5", "^C", "^[", "kp.", "x-y", "C-", ""];

/** process arguments plus the target whose id replaces `sessionId` when it is not "none". */
export function processCall(wrong: fc.Arbitrary<unknown>) {
  const args = fc.record({
    action: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ACTIONS) }, { weight: 1, arbitrary: fuzzString }),
    sessionId: field(fuzzString),
    data: field(sizedString),
    eof: field(fc.boolean()),
    keys: field(fc.array(fc.oneof(fc.constantFrom(...KEY_TOKENS), fuzzString), { maxLength: 6 })),
    hex: field(fc.array(fc.oneof(fc.constantFrom("0d", "0x41", "zz", "0xfff", "ff", " 1B "), fuzzString), { maxLength: 4 })),
    literal: field(sizedString),
    text: field(sizedString),
    bracketed: field(fc.boolean()),
    offset: field(fuzzNumber),
    limit: field(fuzzNumber),
    timeout: field(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom("100", " 50 ", "abc", "1e3", "-1"), fuzzNumber)),
  }, { requiredKeys: ["action"] });
  return fc.record({
    target: fc.constantFrom<TargetName | "none">(...TARGET_NAMES, "none"),
    args: corrupted(args, [
      "action", "sessionId", "data", "eof", "keys", "hex", "literal", "text", "bracketed", "offset", "limit", "timeout",
    ], wrong),
  });
}
