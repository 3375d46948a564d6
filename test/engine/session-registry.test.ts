// Queued exit events follow their record (REG-07, REG-10, NOTIFY-02): every queued event names a session that
// poll can still resolve, because deleting a record (eviction, clear, remove, expiry) drops its queued event.
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEngine } from "../../src/engine/index.js";
import { SCOPE, ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

/** Runs `count` background sessions one after another and waits until each has been notified. */
async function runNotified(engine: SessionEngine, count: number): Promise<string[]> {
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
