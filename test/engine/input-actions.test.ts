// src/engine/process/input-actions.ts: what `write`, `send-keys`, `submit` and `paste` send to a session's input and
// what they answer (INPUT-03, INPUT-06 … INPUT-15, KEYS-05, KEYS-06). The session is real; its child's stdin records.
import { describe, expect, it } from "vitest";
import {
  BRACKETED_PASTE_END, BRACKETED_PASTE_START, type CursorKeyMode, encodeSendKeys, SUBMIT_BYTES,
} from "../../src/engine/key-encoder.js";
import * as messages from "../../src/engine/messages.js";
import { sendInput } from "../../src/engine/process/input-actions.js";
import { normalizeProcessParams, type InputCall } from "../../src/engine/process/normalize-process.js";
import type { ProcessParams } from "../../src/engine/types.js";
import type { Session } from "../../src/engine/session.js";
import type { ChildHandle, StdinHandle } from "../../src/engine/spawn/child-handle.js";
import { attachChild, newSession } from "./helpers/fake-child.js";

interface Recorder { session: Session; writes: Array<string | Uint8Array>; ended: () => boolean }

/** A real Session of `cat` whose child's stdin records what is written (or fails every write with `failWith`). */
function inputSession(options: { stdinWritable?: boolean; cursorKeyMode?: CursorKeyMode } = {}, failWith?: string): Recorder {
  const writes: Array<string | Uint8Array> = [];
  let ended = false;
  const stdin: StdinHandle = {
    write: async (data) => {
      if (failWith !== undefined) throw new Error(failWith);
      writes.push(data);
    },
    end: () => void (ended = true),
    get writable() {
      return !ended;
    },
  };
  const child: ChildHandle = {
    pid: 4242, pty: false, cursorKeyMode: options.cursorKeyMode ?? "normal", stdin, signal: undefined, release: () => {},
  };
  const session = newSession({ id: "calm-brook", command: "cat" });
  attachChild(session, child);
  if (options.stdinWritable === false) session.endInput();
  return { session, writes, ended: () => ended };
}

/** The normalized call of an input action, as run-process passes it (normalizeProcessParams). */
function inputCall(action: "write" | "send-keys" | "submit" | "paste", params: ProcessParams): InputCall {
  const checked = normalizeProcessParams({ ...params, action, sessionId: "calm-brook" });
  if (!checked.ok) throw new Error(checked.text);
  return checked.call as InputCall;
}

const textOf = (result: { content: [{ text: string }] }): string => result.content[0].text;
const bytesOf = (data: string | Uint8Array | undefined): string =>
  typeof data === "string" ? data : Buffer.from(data ?? new Uint8Array()).toString("latin1");

describe("sendInput", () => {
  it.each(["write", "send-keys", "submit", "paste"] as const)("refuses %s when stdin is not writable and sends nothing (INPUT-03)", async (action) => {
    const { session, writes } = inputSession({ stdinWritable: false });
    const result = await sendInput(session, inputCall(action, { data: "x", keys: ["a"], text: "x" }));
    expect(result.details).toEqual({
      status: "failed", error: messages.stdinNotWritable("calm-brook"), hint: messages.STDIN_NOT_WRITABLE_HINT,
    });
    expect(result.content[0].text).toBe("Session calm-brook stdin is not writable.");
    expect(messages.STDIN_NOT_WRITABLE_HINT).toContain("pty: true");
    expect(writes).toEqual([]);
  });

  it("writes the data and counts its UTF-8 bytes (INPUT-06, INPUT-08)", async () => {
    const { session, writes, ended } = inputSession();
    const result = await sendInput(session, inputCall("write", { data: "你好😀" }));
    expect(writes).toEqual(["你好😀"]);
    expect(ended()).toBe(false);
    expect(textOf(result)).toBe(messages.wroteBytes(10, "calm-brook", false));
    expect(result.details).toEqual({ status: "running", sessionId: "calm-brook", name: "cat" });
  });

  it("writes the data, then ends stdin with eof true (INPUT-09)", async () => {
    const { session, writes, ended } = inputSession();
    const result = await sendInput(session, inputCall("write", { data: "bob\n", eof: true }));
    expect(writes).toEqual(["bob\n"]);
    expect(ended()).toBe(true);
    expect(textOf(result)).toBe(messages.wroteBytes(4, "calm-brook", true));
  });

  it("writes the empty string when data is missing (INPUT-08)", async () => {
    const { session, writes } = inputSession();
    expect(textOf(await sendInput(session, inputCall("write", {})))).toBe(messages.wroteBytes(0, "calm-brook", false));
    expect(writes).toEqual([""]);
  });

  it("rejects with the stream's error when the write fails (INPUT-07)", async () => {
    const { session } = inputSession({}, "EPIPE: the program closed its input");
    await expect(sendInput(session, inputCall("write", { data: "x" }))).rejects.toThrow("EPIPE: the program closed its input");
  });

  it("submits exactly one carriage return (INPUT-12)", async () => {
    const { session, writes } = inputSession();
    expect(textOf(await sendInput(session, inputCall("submit", {})))).toBe(messages.submitted("calm-brook"));
    expect(writes).toEqual([SUBMIT_BYTES]);
    expect(SUBMIT_BYTES).toBe("\r");
  });

  it("wraps a paste in bracketed-paste markers and counts UTF-16 units (INPUT-14)", async () => {
    const { session, writes } = inputSession();
    expect(textOf(await sendInput(session, inputCall("paste", { text: "line1\nline2\n" })))).toBe(messages.pasted(12, "calm-brook"));
    expect(writes).toEqual([`${BRACKETED_PASTE_START}line1\nline2\n${BRACKETED_PASTE_END}`]);
    expect(BRACKETED_PASTE_START + BRACKETED_PASTE_END).toBe("\u001b[200~\u001b[201~");
  });

  it("pastes the text alone with bracketed false, and refuses only an empty unbracketed paste (INPUT-14, INPUT-15)", async () => {
    const { session, writes } = inputSession();
    expect(textOf(await sendInput(session, inputCall("paste", { text: "😀", bracketed: false })))).toBe(messages.pasted(2, "calm-brook"));
    expect(await sendInput(session, inputCall("paste", { text: "", bracketed: false }))).toEqual({
      content: [{ type: "text", text: messages.NO_PASTE_TEXT }], details: { status: "failed", error: messages.NO_PASTE_TEXT },
    });
    expect(textOf(await sendInput(session, inputCall("paste", {})))).toBe(messages.pasted(0, "calm-brook"));
    expect(writes).toEqual(["😀", BRACKETED_PASTE_START + BRACKETED_PASTE_END]);
  });

  it("sends the encoded keys and reports their byte count (KEYS-02, KEYS-04)", async () => {
    const { session, writes } = inputSession({ cursorKeyMode: "application" });
    const expected = encodeSendKeys({ keys: ["up", "C-c"], literal: "ab" }, "application");
    const result = await sendInput(session, inputCall("send-keys", { keys: ["up", "C-c"], literal: "ab" }));
    expect(bytesOf(writes[0])).toBe(bytesOf(expected.bytes));
    expect(textOf(result)).toBe(messages.sentBytes(expected.bytes.length, "calm-brook", expected.warnings));
  });

  it("refuses an unmodified cursor key while the cursor key mode is unknown and sends nothing (KEYS-06)", async () => {
    const { session, writes } = inputSession({ cursorKeyMode: "unknown" });
    const result = await sendInput(session, inputCall("send-keys", { keys: ["Enter", "UP"] }));
    expect(result.details).toEqual({ status: "failed", error: messages.cursorModeUnknown("calm-brook") });
    expect(writes).toEqual([]);
  });

  it("fails with no key data when nothing is left to send (KEYS-05)", async () => {
    const { session, writes } = inputSession();
    const result = await sendInput(session, inputCall("send-keys", { hex: ["zz"], keys: [""] }));
    expect(result.details).toEqual({ status: "failed", error: messages.NO_KEY_DATA });
    expect(writes).toEqual([]);
  });
});
