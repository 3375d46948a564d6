// src/engine/process/normalize-process.ts: raw process arguments become one typed call per action, with the
// refusals of PROC-02 and PROC-03 in that order, each parameter's default, and unused parameters dropped (PROC-05).
import { describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { normalizeProcessParams, type NormalizedProcess } from "../../src/engine/process/normalize-process.js";
import type { ProcessParams } from "../../src/engine/types.js";

const callOf = (params: ProcessParams): NormalizedProcess => {
  const checked = normalizeProcessParams(params);
  if (!checked.ok) throw new Error(`expected a call, got the refusal: ${checked.text}`);
  return checked.call;
};

describe("refusals", () => {
  it.each<[string, ProcessParams, string]>([
    ["a missing action is an invalid action", {}, messages.INVALID_ACTION],
    ["an action in another case is an invalid action", { action: "LIST" }, messages.INVALID_ACTION],
    ["an action that is not a string is an invalid action", { action: 3, sessionId: "a" }, messages.INVALID_ACTION],
    ["the action is checked before the session id", { action: "bogus" }, messages.INVALID_ACTION],
    ["a missing session id is refused", { action: "poll" }, messages.SESSION_ID_REQUIRED],
    ["an empty session id is refused", { action: "kill", sessionId: "" }, messages.SESSION_ID_REQUIRED],
    ["a session id that is not a string is refused", { action: "log", sessionId: 7 }, messages.SESSION_ID_REQUIRED],
  ])("%s", (_, params, text) => {
    expect(normalizeProcessParams(params)).toEqual({ ok: false, text });
  });

  it("list needs no session id and ignores the other parameters", () => {
    expect(callOf({ action: "list", sessionId: 5, timeout: 100 })).toEqual({ action: "list" });
  });
});

describe("poll and log", () => {
  it.each<[unknown, number]>([
    [undefined, 0], [1500.9, 1500], [-5, 0], [120_000, 30_000], [" 2000 ", 2000], ["2e3", 0], [true, 0],
  ])("poll reads timeout %j as %i ms (POLL-08)", (timeout, timeoutMs) => {
    expect(callOf({ action: "poll", sessionId: "a", timeout })).toEqual({ action: "poll", sessionId: "a", timeoutMs });
  });

  it.each<[unknown, unknown, number | undefined, number | undefined]>([
    [undefined, undefined, undefined, undefined],
    [1, 2, 1, 2],
    [-3, 1.9, -3, 1.9], // floored and clamped when sliced (LOG-08)
    ["1", Number.NaN, undefined, undefined],
    [Number.POSITIVE_INFINITY, null, undefined, undefined],
  ])("log keeps offset %j and limit %j only as finite numbers", (offset, limit, expectedOffset, expectedLimit) => {
    expect(callOf({ action: "log", sessionId: "a", offset, limit }))
      .toEqual({ action: "log", sessionId: "a", offset: expectedOffset, limit: expectedLimit });
  });
});

describe("input actions", () => {
  it.each<[string, ProcessParams, NormalizedProcess]>([
    ["write defaults data to empty and eof to false", { action: "write", sessionId: "a" },
      { action: "write", sessionId: "a", data: "", eof: false }],
    ["write takes string data and only a true eof", { action: "write", sessionId: "a", data: "y\n", eof: "yes" },
      { action: "write", sessionId: "a", data: "y\n", eof: false }],
    ["write ignores data that is not a string", { action: "write", sessionId: "a", data: 42, eof: true },
      { action: "write", sessionId: "a", data: "", eof: true }],
    ["send-keys keeps the string entries of keys and hex", {
      action: "send-keys", sessionId: "a", keys: ["Up", 3, "Enter"], hex: ["1b", null], literal: "x",
    }, { action: "send-keys", sessionId: "a", keys: ["Up", "Enter"], hex: ["1b"], literal: "x" }],
    ["send-keys leaves out sources not given as their type", { action: "send-keys", sessionId: "a", keys: "Enter", literal: 5 },
      { action: "send-keys", sessionId: "a", keys: undefined, hex: undefined, literal: undefined }],
    ["paste defaults text to empty and bracketed to true", { action: "paste", sessionId: "a", bracketed: "no" },
      { action: "paste", sessionId: "a", text: "", bracketed: true }],
    ["paste is unbracketed only for bracketed false", { action: "paste", sessionId: "a", text: "hi", bracketed: false },
      { action: "paste", sessionId: "a", text: "hi", bracketed: false }],
    ["submit carries only the session id", { action: "submit", sessionId: "a", data: "x" }, { action: "submit", sessionId: "a" }],
  ])("%s", (_, params, call) => {
    expect(callOf(params)).toEqual(call);
  });
});

describe("kill, clear and remove", () => {
  it.each(["kill", "clear", "remove"] as const)("%s carries only the session id (PROC-05)", (action) => {
    expect(callOf({ action, sessionId: "a", data: "x", timeout: 5 })).toEqual({ action, sessionId: "a" });
  });
});
