// src/engine/engine.ts: createSessionEngine wires one engine's settings, registry and notifier, and owns disposal
// (SET-03, REG-01, REG-13, NOTIFY-02, KILL-14 … KILL-16).
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { KILL_GRACE_MS } from "../../src/engine/settings.js";
import type { ExecutorProcess, HostExecutor, SystemEvent, ToolResult } from "../../src/engine/types.js";
import {
  ctx, disposeEngines, liveGroupMembers, newEngine, pidOf, pollUntilDone, sessionIdOf, testEnv, textOf, waitUntil,
} from "../reliability/helpers.js";

afterEach(disposeEngines);

describe("createSessionEngine", () => {
  it("resolves its settings once: changing the env object afterwards changes nothing (SET-03)", async () => {
    const env = testEnv({ OPENCLAW_BASH_YIELD_MS: "50" });
    const engine = newEngine({ env });
    env["OPENCLAW_BASH_YIELD_MS"] = "120000";
    const result = await engine.exec({ command: "sleep 30" }, ctx);
    expect(result.details.status).toBe("running");
  }, 30_000);

  it("keeps the sessions of two engines apart (REG-01)", async () => {
    const first = newEngine();
    const second = newEngine();
    const id = sessionIdOf(await first.exec({ command: "sleep 30", background: true }, ctx));
    expect(textOf(await second.process({ action: "list" }, ctx))).toBe(messages.NO_SESSIONS);
    expect(textOf(await second.process({ action: "poll", sessionId: id }, ctx))).toBe(messages.noSession(id));
    expect(second.liveSessionIds()).toEqual([]);
  }, 30_000);

  it("queues an exit event for the session's scope and calls onSystemEvent as it is queued (NOTIFY-02)", async () => {
    const seen: SystemEvent[] = [];
    const engine = newEngine({ onSystemEvent: (event) => void seen.push(event) });
    const id = sessionIdOf(await engine.exec({ command: "echo built", background: true }, ctx));
    expect(await waitUntil(() => seen.length === 1, 20_000)).toBe(true);
    expect(seen[0]).toMatchObject({ scopeKey: ctx.scopeKey, sessionId: id });
    expect(engine.peekSystemEvents(ctx.scopeKey)).toEqual(seen);
    expect(engine.drainSystemEvents(ctx.scopeKey)).toEqual(seen);
    expect(engine.peekSystemEvents(ctx.scopeKey)).toEqual([]);
  }, 30_000);

  it("clears the finished records of exactly one scope and returns how many (REG-13)", async () => {
    const engine = newEngine();
    const other = { scopeKey: "other" };
    const done = sessionIdOf(await engine.exec({ command: "true", background: true }, ctx));
    const kept = sessionIdOf(await engine.exec({ command: "true", background: true }, other));
    const running = sessionIdOf(await engine.exec({ command: "sleep 30", background: true }, ctx));
    await pollUntilDone(engine, done);
    expect(await waitUntil(() => !engine.liveSessionIds().includes(kept), 20_000)).toBe(true);
    expect(engine.clearFinishedSessions(ctx.scopeKey)).toBe(1);
    expect(engine.clearFinishedSessions(ctx.scopeKey)).toBe(0);
    expect(textOf(await engine.process({ action: "list" }, ctx))).toMatch(new RegExp(`^${running} `));
    expect(textOf(await engine.process({ action: "list" }, other))).toMatch(new RegExp(`^${kept} `));
  }, 30_000);
});

describe("dispose", () => {
  it("ends every live session, foreground and background, and resolves once they completed (KILL-14, KILL-16)", async () => {
    const events: SystemEvent[] = [];
    const engine = newEngine({ onSystemEvent: (event) => void events.push(event) });
    const background = await engine.exec({ command: "sleep 30", background: true }, ctx);
    let foregroundPid: number | undefined;
    const foreground = engine.exec({ command: "echo up; sleep 30", yieldMs: 60_000 }, {
      ...ctx, onUpdate: (update: ToolResult) => void (foregroundPid ??= pidOf(update)),
    });
    expect(await waitUntil(() => foregroundPid !== undefined, 10_000)).toBe(true);
    const disposal = engine.dispose();
    expect(engine.dispose()).toBe(disposal);
    expect(engine.disposed).toBe(true);
    await disposal;
    expect(engine.liveSessionIds()).toEqual([]);
    expect(liveGroupMembers(pidOf(background))).toEqual([]);
    expect(liveGroupMembers(foregroundPid ?? 0)).toEqual([]);
    expect((await foreground).details).toMatchObject({ status: "failed", exitSignal: "SIGTERM" });
    expect(events).toEqual([]);
  }, 30_000);

  it("returns within the kill grace when it runs while an executor without kill is still spawning a command", async () => {
    let spawned: (process: ExecutorProcess) => void = () => {};
    let requested = false;
    const executor: HostExecutor = {
      spawn: () => new Promise((resolve) => {
        requested = true;
        spawned = resolve;
      }),
    };
    const engine = newEngine({ executors: { sandbox: executor } });
    const exec = engine.exec({ command: "sleep 30", host: "sandbox" }, ctx);
    expect(await waitUntil(() => requested, 5_000)).toBe(true);
    const started = Date.now();
    const disposal = engine.dispose();
    // The executor's process arrives after dispose began, never exits and cannot be killed (no `kill`).
    spawned({ onOutput: () => {}, onExit: () => {} });
    await disposal;
    const tookMs = Date.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(KILL_GRACE_MS - 50);
    expect(tookMs).toBeLessThan(KILL_GRACE_MS + 5_000);
    expect(engine.liveSessionIds()).toEqual([]);
    expect((await exec).details).toMatchObject({ status: "failed", exitCode: null, exitSignal: null });
  }, 30_000);

  it("makes later exec and process calls reject with the disposal message (KILL-15)", async () => {
    const engine = newEngine();
    await engine.dispose();
    await expect(engine.exec({ command: "true" }, ctx)).rejects.toThrow(messages.ENGINE_DISPOSED);
    await expect(engine.process({ action: "list" }, ctx)).rejects.toThrow(messages.ENGINE_DISPOSED);
  });
});
