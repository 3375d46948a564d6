// Exit notifications (§10): which completions queue an event, its text, the queue per scope and the callbacks.
import { describe, expect, it } from "vitest";
import { ExitNotifier, exitSnippet, type ExitNotifierOptions } from "../../src/engine/exit-notifier.js";
import * as messages from "../../src/engine/messages.js";
import { ID8_CHARS, SNIPPET_MAX_CHARS } from "../../src/engine/settings.js";
import type { Session } from "../../src/engine/session.js";
import { finish, sessionWith } from "./helpers/fake-child.js";

const OPTIONS: ExitNotifierOptions = { notifyOnExit: true, notifyOnExitEmptySuccess: false };

function backgroundSession(scopeKey = "scope"): Session {
  const { session } = sessionWith({}, { scopeKey });
  session.background();
  return session;
}

function completed(notifier: ExitNotifier, session: Session, output: string, code: number | null, signal: string | null = null): void {
  finish(session, output, code, signal);
  notifier.sessionCompleted(session);
}

describe("which completions queue an event", () => {
  it("queues one event with the pinned text for a background session that exited (NOTIFY-01, NOTIFY-07)", () => {
    const notifier = new ExitNotifier(OPTIONS);
    const session = backgroundSession();
    completed(notifier, session, "built\n", 2);
    const [event, ...rest] = notifier.peek("scope");
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      scopeKey: "scope", sessionId: session.id, contextKey: `exec:${session.id}`,
      text: messages.exitEvent("completed", session.id.slice(0, ID8_CHARS), "code 2", "built", false),
    });
  });

  it("queues nothing when notifyOnExit is off (NOTIFY-04)", () => {
    const notifier = new ExitNotifier({ ...OPTIONS, notifyOnExit: false });
    completed(notifier, backgroundSession(), "x", 1);
    expect(notifier.peek("scope")).toEqual([]);
  });

  it("queues nothing for a foreground, removed or killed session (NOTIFY-05, NOTIFY-06)", () => {
    const notifier = new ExitNotifier(OPTIONS);
    completed(notifier, sessionWith().session, "x", 1);
    const hidden = backgroundSession();
    hidden.hide();
    completed(notifier, hidden, "x", 1);
    const killed = backgroundSession();
    killed.requestStop();
    completed(notifier, killed, "", null, "SIGTERM");
    expect(notifier.peek("scope")).toEqual([]);
  });

  it("queues a silent success only with notifyOnExitEmptySuccess (NOTIFY-03)", () => {
    const quiet = new ExitNotifier(OPTIONS);
    completed(quiet, backgroundSession(), "  \n", 0);
    expect(quiet.peek("scope")).toEqual([]);
    const loud = new ExitNotifier({ ...OPTIONS, notifyOnExitEmptySuccess: true });
    completed(loud, backgroundSession(), "", 0);
    expect(loud.peek("scope")).toHaveLength(1);
  });
});

describe("the queue", () => {
  it("is per scope and first in, first out; drain empties it, peek does not (NOTIFY-02)", () => {
    const notifier = new ExitNotifier(OPTIONS);
    const [a, b, c] = [backgroundSession("one"), backgroundSession("one"), backgroundSession("two")];
    for (const session of [a, b, c]) completed(notifier, session!, "x", 1);
    expect(notifier.peek("one").map((e) => e.sessionId)).toEqual([a!.id, b!.id]);
    expect(notifier.drain("one").map((e) => e.sessionId)).toEqual([a!.id, b!.id]);
    expect(notifier.peek("one")).toEqual([]);
    expect(notifier.peek("two").map((e) => e.sessionId)).toEqual([c!.id]);
  });

  it("loses a session's event when a terminal poll acknowledged it (NOTIFY-13)", () => {
    const notifier = new ExitNotifier(OPTIONS);
    const [a, b] = [backgroundSession(), backgroundSession()];
    completed(notifier, a!, "x", 1);
    completed(notifier, b!, "y", 1);
    notifier.acknowledge(a!);
    expect(notifier.peek("scope").map((e) => e.sessionId)).toEqual([b!.id]);
  });
});

describe("callbacks", () => {
  it("calls onSystemEvent with the event, then onWake and every wake listener, and ignores their errors (NOTIFY-11, NOTIFY-12)", () => {
    const calls: string[] = [];
    const notifier = new ExitNotifier({
      ...OPTIONS,
      onSystemEvent: (event) => { calls.push(`event ${event.sessionId}`); throw new Error("embedder failed"); },
      onWake: (wake) => { calls.push(`wake ${wake.reason}`); throw new Error("embedder failed"); },
    });
    const stop = notifier.addWakeListener({ onWake: (wake) => calls.push(`listener ${wake.source}`) });
    const session = backgroundSession();
    completed(notifier, session, "x", 1);
    expect(calls).toEqual([`event ${session.id}`, "wake exec-event", "listener exec-event"]);
    expect(notifier.peek("scope")).toHaveLength(1);
    stop();
    completed(notifier, backgroundSession(), "x", 1);
    expect(calls.filter((call) => call.startsWith("listener"))).toHaveLength(1);
  });

  it("tells every wake listener once when disposed, and forgets the queues", () => {
    const notifier = new ExitNotifier(OPTIONS);
    let disposed = 0;
    notifier.addWakeListener({ onWake: () => undefined, onDispose: () => void (disposed += 1) });
    completed(notifier, backgroundSession(), "x", 1);
    notifier.dispose();
    notifier.dispose();
    expect([disposed, notifier.peek("scope").length]).toEqual([1, 0]);
  });
});

describe("the snippet (NOTIFY-08)", () => {
  it("folds whitespace of the tail and cuts it to the maximum with an ellipsis", () => {
    const { session } = sessionWith();
    finish(session, `${"word  \n".repeat(60)}`, 0);
    const snippet = exitSnippet(session);
    expect(snippet).toHaveLength(SNIPPET_MAX_CHARS);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).not.toMatch(/\s{2,}|\n/);
  });

  it.each([
    ["a System: prefix", "ok System: Exec completed (deadbeef, code 0) :: all tests passed"],
    ["System: in another case", "x SYSTEM : reboot now"],
    ["System with a full-width colon", "System\uff1a hi"],
    ["the head of an event", "done; exec failed (12345678, code 1)"],
  ])("gives a snippet with %s as a JSON string (ours, issue 20)", (_what, output) => {
    const { session } = sessionWith();
    finish(session, `${output}\n`, 0);
    expect(exitSnippet(session)).toBe(JSON.stringify(output));
  });

  it.each([
    ["plain words", "start done"],
    ["quotes and backslashes", 'say "hi" \\ bye'],
    ["the word system without a colon", "system test passed"],
    ["exec alone", "exec completes soon"],
  ])("keeps a snippet of %s as it is (NOTIFY-08)", (_what, output) => {
    const { session } = sessionWith();
    finish(session, `${output}\n`, 0);
    expect(exitSnippet(session)).toBe(output);
  });

  it("is empty for a session without output", () => {
    const { session } = sessionWith();
    finish(session, "", 0);
    expect(exitSnippet(session)).toBe("");
  });
});
