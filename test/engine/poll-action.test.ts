// src/engine/process/poll-action.ts: the poll timeout (POLL-08), the back-off (POLL-06) and the poll result.
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { parsePollTimeout } from "../../src/engine/process/normalize-process.js";
import { countRunningPoll, resetPollBackoff, retryInMs } from "../../src/engine/process/poll-action.js";
import { deriveSessionName } from "../../src/engine/session-name.js";
import { POLL_BACKOFF_MS, POLL_RETRY_WITH_OUTPUT_MS } from "../../src/engine/settings.js";
import { sessionWith } from "./helpers/fake-child.js";
import { ctx, disposeEngines, newEngine, sessionIdOf, textOf, waitUntil } from "../reliability/helpers.js";

afterEach(disposeEngines);

describe("countRunningPoll", () => {
  it("counts the back-off step of each running poll: output makes it 1 again, a kill request starts it over (POLL-06)", () => {
    const { session } = sessionWith();
    expect([countRunningPoll(session, false), countRunningPoll(session, false)]).toEqual([1, 2]);
    expect([countRunningPoll(session, true), countRunningPoll(session, false)]).toEqual([1, 2]);
    resetPollBackoff(session);
    expect(countRunningPoll(session, false)).toBe(1);
    expect(countRunningPoll(sessionWith().session, false)).toBe(1); // each session counts its own
  });
});

describe("retryInMs", () => {
  it("backs off 5000, 10000, 30000, 60000, 60000 over consecutive empty polls and is 5000 after output (POLL-06)", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(retryInMs)).toEqual([5000, 5000, 10000, 30000, 60000, 60000, 60000]);
  });
});

describe("parsePollTimeout", () => {
  it.each([
    [undefined, 0], [0, 0], [1500.9, 1500], [-5, 0], [120000, 30000], ["2000", 2000], [" 2000 ", 2000],
    ["99999", 30000], ["2e3", 0], ["-1", 0], ["1.5", 0], [Number.NaN, 0], [Number.POSITIVE_INFINITY, 0], [true, 0],
  ])("reads %j as %i ms (POLL-08)", (value, expected) => {
    expect(parsePollTimeout(value)).toBe(expected);
  });
});

describe("pollSession", () => {
  const poll = (engine: ReturnType<typeof newEngine>, sessionId: string, extra: Record<string, unknown> = {}, signal?: AbortSignal) =>
    engine.process({ action: "poll", sessionId, ...extra }, signal ? { ...ctx, signal } : ctx);

  it("rejects a poll whose signal is already aborted before reading anything (POLL-11)", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "echo ready; sleep 30", background: true }, ctx));
    await expect(poll(engine, id, {}, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError", message: messages.ABORTED });
    const later = await poll(engine, id, { timeout: 10_000 });
    expect(textOf(later)).toBe(`ready\n\n${messages.PROCESS_STILL_RUNNING}`);
  }, 30_000);

  it("drains output once and backs off over consecutive empty running polls (POLL-03, POLL-05, POLL-06)", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "echo once; sleep 30", background: true }, ctx));
    const first = await poll(engine, id, { timeout: 10_000 });
    expect(textOf(first)).toBe(`once\n\n${messages.PROCESS_STILL_RUNNING}`);
    expect(first.details).toMatchObject({ status: "running", sessionId: id, aggregated: "once\n", retryInMs: POLL_RETRY_WITH_OUTPUT_MS });
    const empty = [await poll(engine, id), await poll(engine, id)];
    expect(empty.map(textOf)).toEqual([1, 2].map(() => `${messages.NO_NEW_OUTPUT}\n\n${messages.PROCESS_STILL_RUNNING}`));
    // The poll with output was back-off step 1, so the empty ones are steps 2 and 3 (POLL-06, as upstream).
    expect(empty.map((result) => result.details["retryInMs"])).toEqual([POLL_BACKOFF_MS[1], POLL_BACKOFF_MS[2]]);
  }, 30_000);

  it("reports the exit once with the unread output, then the same exit line without a replay (POLL-14, POLL-15, POLL-17)", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "echo done; exit 4", background: true }, ctx));
    expect(await waitUntil(() => !engine.liveSessionIds().includes(id), 20_000)).toBe(true);
    const terminal = await poll(engine, id);
    expect(textOf(terminal)).toBe(`done\n\n${messages.processExitedWith("code 4")}`);
    expect(terminal.details).toEqual({
      status: "completed", sessionId: id, exitCode: 4, exitSignal: null, exitReason: "exit", timedOut: false,
      noOutputTimedOut: false, name: deriveSessionName("echo done; exit 4"), aggregated: "done\n",
    });
    expect(textOf(await poll(engine, id))).toBe(`${messages.NO_NEW_OUTPUT}\n\n${messages.processExitedWith("code 4")}`);
  }, 30_000);

  it("adds the timeout guidance to the terminal poll of a timed-out session (POLL-15, POLL-20)", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "sleep 30", background: true, timeoutSeconds: 0.2 }, ctx));
    const terminal = await poll(engine, id, { timeout: 20_000 });
    expect(textOf(terminal)).toBe(
      `${messages.NO_NEW_OUTPUT}\n\n${messages.processExitedWith("signal SIGTERM")}\n\n${messages.TIMEOUT_GUIDANCE}`);
    expect(terminal.details).toMatchObject({ status: "failed", exitReason: "overall-timeout", timedOut: true });
  }, 30_000);
});
