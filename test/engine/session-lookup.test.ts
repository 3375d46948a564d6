// Every process action looks a session up by its full id. A prefix — such as the 8 characters an exit notice shows
// (NOTIFY-07) — is an unknown id with the pinned texts (POLL-02, LOG-02, INPUT-04, KILL-02, PROC-10, PROC-13), so
// prefix lookup would break those rules; the full id is in the event's `sessionId` (NOTIFY-10) and in `list`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionEngine, type LocalSessionEngine } from "../../src/engine/index.js";

let engine: LocalSessionEngine;
let id: string;

beforeAll(async () => {
  engine = createSessionEngine({ env: { ...process.env, SHELL: "/bin/sh" } });
  const started = await engine.exec({ command: "sleep 30", background: true, pty: true }, { scopeKey: "s1" });
  id = String(started.details["sessionId"]);
});
afterAll(() => engine.dispose());

describe("session lookup by id", () => {
  it.each([
    ["poll", "No session found for"],
    ["log", "No session found for"],
    ["write", "No active session found for"],
    ["send-keys", "No active session found for"],
    ["submit", "No active session found for"],
    ["paste", "No active session found for"],
    ["kill", "No active session found for"],
    ["clear", "No finished session found for"],
    ["remove", "No session found for"],
  ])("%s refuses the 8-character prefix of a running session's id as an unknown id", async (action, text) => {
    expect(id.length).toBeGreaterThan(8);
    const prefix = id.slice(0, 8);
    const result = await engine.process({ action, sessionId: prefix, keys: ["Enter"], text: "x", data: "x" }, { scopeKey: "s1" });
    expect(result.details).toEqual({ status: "failed", error: `${text} ${prefix}` });
    expect(engine.liveSessionIds()).toContain(id);
  });

  it("finds the session by its full id", async () => {
    const result = await engine.process({ action: "poll", sessionId: id }, { scopeKey: "s1" });
    expect(result.details).toMatchObject({ status: "running", sessionId: id });
  });
});
