// engine.watch (issue 34): a matching output line queues an `Output matched` system event and requests a wake.
import { afterEach, describe, expect, it } from "vitest";
import { ExecProcessError, type LocalSessionEngine, type SystemEvent, type WakeRequest } from "../../src/engine/index.js";
import { SETTINGS_TABLE } from "../../src/engine/settings.js";
import { ctx, disposeEngines, newEngine, sessionIdOf, textOf } from "../reliability/helpers.js";
import { STALL_BOUND_MS } from "../security/helpers.js";

afterEach(disposeEngines);

interface Watched {
  engine: LocalSessionEngine;
  events: SystemEvent[];
  wakes: WakeRequest[];
  /** Resolves with the next event whose text matches, or rejects after `ms`. */
  nextEvent(match: RegExp, ms?: number): Promise<SystemEvent>;
}

function watchedEngine(options: Parameters<typeof newEngine>[0] = {}): Watched {
  const events: SystemEvent[] = [];
  const wakes: WakeRequest[] = [];
  const waiters: Array<() => void> = [];
  const engine = newEngine({
    ...options,
    onSystemEvent: (event) => {
      events.push(event);
      for (const wake of waiters.splice(0)) wake();
    },
    onWake: (request) => wakes.push(request),
  });
  const nextEvent = async (match: RegExp, ms = 10_000): Promise<SystemEvent> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = events.find((event) => match.test(event.text));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event matching ${match} within ${ms} ms; events: ${JSON.stringify(events.map((e) => e.text))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return { engine, events, wakes, nextEvent };
}

async function background(engine: LocalSessionEngine, command: string, pty = false): Promise<string> {
  return sessionIdOf(await engine.exec({ command, background: true, pty }, ctx));
}

async function watch(engine: LocalSessionEngine, params: Record<string, unknown>) {
  if (!engine.watch) throw new Error("the engine has no watch");
  return engine.watch(params, ctx);
}

describe("engine.watch", () => {
  it("queues `Output matched (<id>): <line>` for the scope and requests a wake, once by default", async () => {
    const { engine, events, wakes, nextEvent } = watchedEngine();
    const id = await background(engine, "sleep 0.3; echo 'server is ready'; echo 'ready again'; sleep 30");
    const started = await watch(engine, { sessionId: id, pattern: "ready" });
    expect(started.details).toMatchObject({ status: "running", sessionId: id, watch: { state: "watching", once: true } });
    const event = await nextEvent(/^Output matched/);
    expect(event).toMatchObject({ scopeKey: ctx.scopeKey, sessionId: id, text: `Output matched (${id}): server is ready` });
    expect(wakes).toContainEqual({ scopeKey: ctx.scopeKey, sessionId: id, source: "exec-event", reason: "exec-event" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.filter((e) => e.text.startsWith("Output matched"))).toHaveLength(1);
    expect(engine.peekSystemEvents(ctx.scopeKey).map((e) => e.text)).toEqual([`Output matched (${id}): server is ready`]);
  });

  it("matches a line written one byte at a time (split across reads)", async () => {
    const { engine, nextEvent } = watchedEngine();
    const id = await background(engine, "for c in r e a d y; do printf %s $c; sleep 0.05; done; echo; sleep 30");
    await watch(engine, { sessionId: id, pattern: "ready" });
    expect((await nextEvent(/^Output matched/)).text).toBe(`Output matched (${id}): ready`);
  });

  it("matches a line whose match came in an earlier read than its end", async () => {
    const { engine, nextEvent } = watchedEngine();
    const id = await background(engine, "sleep 0.3; printf 'xx ready'; sleep 0.3; printf ' yy'; sleep 0.3; echo ' zz'; sleep 30");
    await watch(engine, { sessionId: id, pattern: "ready" });
    expect((await nextEvent(/^Output matched/)).text).toBe(`Output matched (${id}): xx ready yy zz`);
  });

  it("matches a PTY's sanitized lines: escape sequences removed, CRLF ends the line", async () => {
    const { engine, nextEvent } = watchedEngine();
    const id = await background(engine, "sleep 0.3; printf '\\033[32mready\\033[0m\\n'; sleep 30", true);
    await watch(engine, { sessionId: id, pattern: "^ready$", regex: true });
    expect((await nextEvent(/^Output matched/)).text).toBe(`Output matched (${id}): ready`);
  });

  it("with once: false, folds the matches of one second into one event that counts them", async () => {
    const { engine, events, nextEvent } = watchedEngine();
    const id = await background(engine, "sleep 0.3; echo 'hit 1'; echo 'miss'; echo 'hit 2'; echo 'hit 3'; sleep 30");
    await watch(engine, { sessionId: id, pattern: "hit", once: false });
    expect((await nextEvent(/^Output matched/)).text).toBe(`Output matched (${id}, 3 lines): hit 1`);
    expect(events.filter((e) => e.text.startsWith("Output matched"))).toHaveLength(1);
    const poll = await engine.process({ action: "poll", sessionId: id, timeout: 0 }, ctx);
    expect(poll.details.watches).toEqual([expect.objectContaining({ pattern: "hit", state: "watching", matches: 3 })]);
  });

  it("ends with the session: an event says that no line matched", async () => {
    const { engine, nextEvent } = watchedEngine();
    const id = await background(engine, "echo starting; sleep 0.5; echo failed; exit 3");
    await watch(engine, { sessionId: id, pattern: "ready" });
    const ended = await nextEvent(/^Watch ended/);
    expect(ended.text).toBe(`Watch ended (${id}): the session ended and no output line matched "ready".`);
    const poll = await engine.process({ action: "poll", sessionId: id, timeout: 0 }, ctx);
    expect(poll.details.watches).toEqual([expect.objectContaining({ state: "session-ended", matches: 0 })]);
    expect(textOf(poll)).not.toContain("ready");
  });

  it("ends after timeoutSeconds with a `no match within N s` event", async () => {
    const { engine, nextEvent } = watchedEngine();
    const id = await background(engine, "sleep 30");
    await watch(engine, { sessionId: id, pattern: "ready", timeoutSeconds: 0.2 });
    expect((await nextEvent(/^Watch ended/)).text)
      .toBe(`Watch ended (${id}): no match within 0.2 s for "ready". The session is still running.`);
  });

  it("a killed session's watch ends without an event (as KILL-07)", async () => {
    const { engine, events } = watchedEngine();
    const id = await background(engine, "sleep 30");
    await watch(engine, { sessionId: id, pattern: "ready" });
    await engine.process({ action: "kill", sessionId: id }, ctx);
    for (let i = 0; i < 50 && engine.liveSessionIds().includes(id); i++) await new Promise((r) => setTimeout(r, 100));
    expect(engine.liveSessionIds()).not.toContain(id);
    expect(events).toEqual([]);
  });

  it("answers at once from retained output: a line already printed matches, with no event", async () => {
    const { engine, events } = watchedEngine();
    const id = await background(engine, "echo 'listening'; echo 'ready'; sleep 30");
    for (let i = 0; i < 50; i++) {
      const log = await engine.process({ action: "log", sessionId: id }, ctx);
      if (textOf(log).includes("ready")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const result = await watch(engine, { sessionId: id, pattern: "ready" });
    expect(result.details).toMatchObject({ status: "completed", matchedLine: "ready", watch: { state: "matched" } });
    expect(textOf(result)).toBe(`Output matched (${id}): ready`);
    expect(events).toEqual([]);
  });

  it("list and poll show watches in their details, never in their texts", async () => {
    const { engine } = watchedEngine();
    const id = await background(engine, "sleep 30");
    const other = await background(engine, "sleep 30");
    await watch(engine, { sessionId: id, pattern: "needle-text" });
    const list = await engine.process({ action: "list" }, ctx);
    expect(textOf(list)).not.toContain("needle-text");
    const entries = list.details.sessions ?? [];
    expect(entries.find((e) => e.sessionId === id)?.watches).toEqual([
      expect.objectContaining({ watchId: expect.any(String), pattern: "needle-text", regex: false, once: true, state: "watching" }),
    ]);
    expect(entries.find((e) => e.sessionId === other)).not.toHaveProperty("watches");
    const poll = await engine.process({ action: "poll", sessionId: id, timeout: 0 }, ctx);
    expect(textOf(poll)).not.toContain("needle-text");
    expect(poll.details.watches).toHaveLength(1);
  });

  it("refuses a watch over the per-session limit with an error naming the setting", async () => {
    const { engine } = watchedEngine();
    const id = await background(engine, "sleep 30");
    const limit = SETTINGS_TABLE.maxWatchesPerSession.defaultValue;
    for (let i = 0; i < limit; i++) await watch(engine, { sessionId: id, pattern: `p${i}` });
    const error = await watch(engine, { sessionId: id, pattern: "one more" }).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "watch-limit")).toBe(true);
    expect((error as ExecProcessError<"watch-limit">).data).toMatchObject({ per: "session", limit, setting: "maxWatchesPerSession" });
    expect((error as Error).message).toContain("maxWatchesPerSession");
  });

  it("refuses a watch over the per-scope limit", async () => {
    const { engine } = watchedEngine();
    const perSession = SETTINGS_TABLE.maxWatchesPerSession.defaultValue;
    const perScope = SETTINGS_TABLE.maxWatchesPerScope.defaultValue;
    let error: unknown;
    for (let watched = 0; watched <= perScope && error === undefined;) {
      const id = await background(engine, "sleep 30");
      for (let i = 0; i < perSession && error === undefined; i++, watched++) {
        error = await watch(engine, { sessionId: id, pattern: `p${i}` }).then(() => undefined, (e: unknown) => e);
      }
    }
    expect(ExecProcessError.is(error, "watch-limit")).toBe(true);
    expect((error as ExecProcessError<"watch-limit">).data).toMatchObject({ per: "scope", limit: perScope, setting: "maxWatchesPerScope" });
  });

  it.each([
    [{ pattern: "x" }, "sessionId"],
    [{ pattern: "" }, "pattern"],
    [{ pattern: "a\nb" }, "pattern"],
    [{ pattern: "x", regex: "yes" }, "regex"],
    [{ pattern: "x", once: 1 }, "once"],
    [{ pattern: "x", timeoutSeconds: -1 }, "timeoutSeconds"],
  ])("rejects invalid arguments %j naming the parameter %s", async (args, param) => {
    const { engine } = watchedEngine();
    const id = await background(engine, "sleep 30");
    const params = "pattern" in args && !("sessionId" in args) && param === "sessionId" ? args : { sessionId: id, ...args };
    const error = await watch(engine, params).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "invalid-watch-argument")).toBe(true);
    expect((error as ExecProcessError).param).toBe(param);
  });

  it("rejects a regex that does not compile, with the regex engine's reason and no path", async () => {
    const { engine } = watchedEngine();
    const id = await background(engine, "sleep 30");
    const error = await watch(engine, { sessionId: id, pattern: "(ready", regex: true }).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "invalid-watch-pattern")).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid watch pattern "(ready": missing closing ). Fix the regular expression (RE2 syntax: no backreferences or lookaround), or omit regex to match the text literally.',
    );
  });

  it("an unknown session is a failed result, as process poll says", async () => {
    const { engine } = watchedEngine();
    const result = await watch(engine, { sessionId: "nope", pattern: "x" });
    expect(result.details).toEqual({ status: "failed", error: "No session found for nope" });
  });
});

describe("safe matching", () => {
  // A stall, not a speed: a backtracking engine never finishes the first line (the loop's 20 s end with no line
  // matched), RE2JS takes a few ms a line. The bound is the attacks' "stalls nothing": at 100 ms, one busy loop
  // beside npm test once made a poll take 202 ms (issue 36, eighth round).
  it("a catastrophic pattern against a 100 kB line never stalls a concurrent poll", { timeout: 30_000 }, async () => {
    const { engine } = watchedEngine();
    const other = await background(engine, "sleep 30");
    // 20 lines of 100 000 `a` and a `!`: a backtracking engine would take longer than the universe's age on one.
    const id = await background(engine,
      "sleep 0.3; i=0; while [ $i -lt 20 ]; do head -c 100000 /dev/zero | tr '\\0' a; echo '!'; i=$((i+1)); done; sleep 30");
    await watch(engine, { sessionId: id, pattern: "^(a+)+$", regex: true, once: false });
    await watch(engine, { sessionId: id, pattern: "!", once: false }); // counts the lines matched so far
    let slowest = 0;
    let polls = 0;
    const until = Date.now() + 20_000;
    const linesOf = async () => (await engine.process({ action: "list" }, ctx)).details.sessions
      ?.find((entry) => entry.sessionId === id)?.watches?.[1]?.matches ?? 0;
    while (Date.now() < until && (await linesOf()) < 20) {
      const started = performance.now();
      await engine.process({ action: "poll", sessionId: other, timeout: 0 }, ctx);
      slowest = Math.max(slowest, performance.now() - started);
      polls++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await linesOf()).toBeGreaterThanOrEqual(20); // every line was matched while we polled
    expect(polls).toBeGreaterThan(10);
    expect(slowest, "the slowest poll's ms").toBeLessThan(STALL_BOUND_MS);
  });
});
