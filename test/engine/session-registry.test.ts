// Queued exit events follow their record (REG-07, REG-10, NOTIFY-02): every queued event names a session that
// poll can still resolve, because deleting a record (eviction, clear, remove, expiry) drops its queued event.
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionRegistry } from "../../src/engine/session-registry.js";
import { MAX_FINISHED_RECORDS } from "../../src/engine/settings.js";
import type { LocalSessionEngine } from "../../src/engine/index.js";
import { finish, sessionWith } from "./helpers/fake-child.js";
import { SCOPE, ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

/** Runs `count` background sessions one after another and waits until each has been notified. */
async function runNotified(engine: LocalSessionEngine, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = sessionIdOf(await engine.exec({ command: `echo out${i}`, background: true }, ctx));
    ids.push(id);
    for (let tries = 0; !engine.peekSystemEvents(SCOPE).some((e) => e.sessionId === id); tries += 1) {
      if (tries > 400) throw new Error(`no exit event for ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return ids;
}

describe("queued exit events and deleted records", () => {
  it("drops the queued event of a record evicted by the 50-record cap, so every queued id stays pollable", async () => {
    const engine = newEngine();
    const ids = await runNotified(engine, 52);
    const queued = engine.peekSystemEvents(SCOPE).map((event) => event.sessionId);
    expect(queued).toEqual(ids.slice(2)); // s0 and s1 were evicted (REG-07): their events went with them
    for (const id of queued) {
      expect(textOf(await engine.process({ action: "poll", sessionId: id }, ctx))).not.toBe(`No session found for ${id}`);
    }
  }, 120_000);

  it("drops the queued event of a record deleted by clear, like an evicted one (REG-10)", async () => {
    const engine = newEngine();
    const [first, second] = await runNotified(engine, 2);
    await engine.process({ action: "clear", sessionId: first }, ctx);
    expect(engine.peekSystemEvents(SCOPE).map((event) => event.sessionId)).toEqual([second]);
    await pollUntilDone(engine, second ?? "");
  }, 60_000);
});

describe("the registry's own rules, on sessions without processes", () => {
  const registered = (registry: SessionRegistry, scopeKey = "scope") => {
    const made = sessionWith({}, { scopeKey });
    registry.add(made.session);
    return made.session;
  };

  it("finds a running session by id only in its own scope and while addressable (REG-05, PROC-07)", () => {
    const registry = new SessionRegistry();
    const session = registered(registry);
    expect(registry.running("scope", session.id)).toBe(session); // in the foreground: found, PROC-07 answers
    expect(registry.running("other", session.id)).toBeUndefined();
    session.background();
    session.hide();
    expect(registry.running("scope", session.id)).toBeUndefined();
  });

  it("keeps a finished record only for a session that was listed when it completed (REG-02, RES-24)", () => {
    const registry = new SessionRegistry();
    const [foreground, listed, hidden] = [registered(registry), registered(registry), registered(registry)];
    listed.background();
    hidden.background();
    hidden.hide();
    for (const session of [foreground, listed, hidden]) finish(session, "x", 0);
    expect([foreground, listed, hidden].map((s) => registry.finished("scope", s.id) !== undefined)).toEqual([false, true, false]);
    expect(registry.isTaken(foreground.id)).toBe(false); // the id is released
  });

  it("counts backgrounded sessions as live until they complete, removed ones included (REG-14)", () => {
    const registry = new SessionRegistry();
    registered(registry); // stays in the foreground: not live
    const [listed, hidden] = [registered(registry), registered(registry)];
    listed.background();
    hidden.background();
    hidden.hide();
    expect(registry.liveIds()).toEqual([listed.id, hidden.id]);
    finish(listed, "", 0);
    expect(registry.liveIds()).toEqual([hidden.id]);
    expect(registry.visible("scope")).toEqual([listed]);
  });

  it("lists newest first and, on equal start times, the later registration first (LIST-02)", () => {
    const registry = new SessionRegistry();
    const sessions = [registered(registry), registered(registry), registered(registry)];
    for (const session of sessions) session.background();
    const expected = [...sessions].sort((a, b) => b.startedAt - a.startedAt || b.seq - a.seq);
    expect(registry.visible("scope")).toEqual(expected);
  });

  it("evicts the oldest-completed record past the record cap and reports each deletion (REG-07, REG-10)", () => {
    const deleted: string[] = [];
    const registry = new SessionRegistry({ onRecordDeleted: (session) => deleted.push(session.id) });
    const sessions = Array.from({ length: MAX_FINISHED_RECORDS + 2 }, () => registered(registry));
    for (const session of sessions) {
      session.background();
      finish(session, "", 0);
    }
    expect(deleted).toEqual([sessions[0]!.id, sessions[1]!.id]);
    expect(registry.finished("scope", sessions[2]!.id)).toBe(sessions[2]);
  });

  it("clears the finished records of exactly one scope (REG-13)", () => {
    const registry = new SessionRegistry();
    const [mine, theirs] = [registered(registry, "mine"), registered(registry, "theirs")];
    for (const session of [mine, theirs]) {
      session.background();
      finish(session, "", 0);
    }
    expect(registry.clearFinished("mine")).toBe(1);
    expect([registry.finished("mine", mine.id), registry.finished("theirs", theirs.id)]).toEqual([undefined, theirs]);
  });

  it("deletes a record when its time to live has passed (REG-06)", () => {
    vi.useFakeTimers();
    try {
      const registry = new SessionRegistry();
      const { session } = sessionWith({}, { ttlMs: 1_000 });
      registry.add(session);
      session.background();
      finish(session, "", 0);
      vi.advanceTimersByTime(999);
      expect(registry.finished("scope", session.id)).toBe(session);
      vi.advanceTimersByTime(1);
      expect(registry.finished("scope", session.id)).toBeUndefined();
      registry.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
