// src/engine/outcome.ts: the one classification of how a command ended, used by the foreground result (RES-10 …
// RES-20) and by the outcome status of list, poll, log and exit events (RES-26).
import { afterEach, describe, expect, it } from "vitest";
import { classifyFailure, outcomeStatusOf, type ExitFacts, type OutcomeStatus, type SessionFailureKind } from "../../src/engine/outcome.js";

import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

describe("classifyFailure and outcomeStatusOf", () => {
  it.each<[string, ExitFacts, SessionFailureKind | undefined, OutcomeStatus]>([
    ["exit code 0 completed", { exitCode: 0, exitSignal: null, exitReason: "exit" }, undefined, "completed"],
    ["a non-zero exit code other than 126 and 127 completed", { exitCode: 3, exitSignal: null, exitReason: "exit" },
      undefined, "completed"],
    ["exit code 127 is a command the shell did not find", { exitCode: 127, exitSignal: null, exitReason: "exit" },
      "shell-command-not-found", "failed"],
    ["exit code 126 is a command the shell could not execute", { exitCode: 126, exitSignal: null, exitReason: "exit" },
      "shell-not-executable", "failed"],
    ["a missing exit code is an abort before exit", { exitCode: null, exitSignal: null, exitReason: "exit" },
      "aborted", "failed"],
    ["a signal death is a signal failure", { exitCode: null, exitSignal: "SIGKILL", exitReason: "signal" },
      "signal", "failed"],
    ["an overall timeout wins over the signal that carried it out",
      { exitCode: null, exitSignal: "SIGTERM", exitReason: "overall-timeout" }, "overall-timeout", "failed"],
    ["a requested stop by signal is a signal failure", { exitCode: null, exitSignal: "SIGTERM", exitReason: "manual-cancel" },
      "signal", "failed"],
    // A command that traps the stop and exits 0 is no foreground failure, but its outcome is not "completed".
    ["a requested stop that exited 0 has no failure kind and a failed outcome",
      { exitCode: 0, exitSignal: null, exitReason: "manual-cancel" }, undefined, "failed"],
  ])("%s", (_, exit, kind, status) => {
    expect(classifyFailure(exit)).toBe(kind);
    expect(outcomeStatusOf(exit)).toBe(status);
  });
});

describe("the engine reports the one classification", () => {
  it("a foreground exit 127 is the failure kind shell-command-not-found with the pinned reason", async () => {
    const result = await newEngine().exec({ command: "exit 127" }, ctx);
    expect(result.details).toMatchObject({ status: "failed", failureKind: "shell-command-not-found", exitCode: 127 });
    expect(textOf(result)).toBe("Command not found");
  });

  it("a background exit 126 is reported failed by poll and list", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "exit 126", background: true }, ctx));
    const done = await pollUntilDone(engine, id);
    expect(done.details).toMatchObject({ status: "failed", exitCode: 126, exitReason: "exit" });
    const list = await engine.process({ action: "list" }, ctx);
    expect(list.details).toMatchObject({ status: "completed", sessions: [{ sessionId: id, status: "failed" }] });
  });
});
