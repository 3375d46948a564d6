// `write`, `send-keys`, `submit` and `paste` (§8): shared guards, then one write to the session's input.
import * as messages from "../messages.js";
import {
  BRACKETED_PASTE_END, BRACKETED_PASTE_START, SUBMIT_BYTES, encodeSendKeys, hasUnmodifiedCursorKey,
} from "../key-encoder.js";
import type { Session } from "../session.js";
import type { InputDetails, ProcessFailureDetails } from "../result-details.js";
import type { ToolResult } from "../types.js";
import type { InputCall } from "./normalize-process.js";
import { failure, nameField, result } from "./session-view.js";

function inputResult(session: Session, text: string): ToolResult<InputDetails> {
  return result(text, { status: "running", sessionId: session.id, ...nameField(session) });
}

/** Runs an input action on a session that passed the running-session guards of INPUT-04. */
export async function sendInput(session: Session, call: InputCall,
): Promise<ToolResult<InputDetails> | ToolResult<ProcessFailureDetails>> {
  if (!session.stdinWritable) return failure(messages.stdinNotWritable(session.id), messages.STDIN_NOT_WRITABLE_HINT); // INPUT-03
  switch (call.action) {
    case "write": {
      const { data, eof } = call;
      await session.writeInput(data); // INPUT-07: a stream error rejects the call
      if (eof) session.endInput();
      return inputResult(session, messages.wroteBytes(Buffer.byteLength(data, "utf8"), session.id, eof));
    }
    case "send-keys": {
      const { keys, literal, hex } = call;
      if (session.cursorKeyMode === "unknown" && hasUnmodifiedCursorKey(keys)) {
        return failure(messages.cursorModeUnknown(session.id)); // KEYS-06
      }
      const { bytes, warnings } = encodeSendKeys({
        ...(literal !== undefined ? { literal } : {}), ...(hex ? { hex } : {}), ...(keys ? { keys } : {}),
      }, session.cursorKeyMode);
      if (bytes.length === 0) return failure(messages.NO_KEY_DATA); // KEYS-05
      await session.writeInput(bytes);
      return inputResult(session, messages.sentBytes(bytes.length, session.id, warnings));
    }
    case "submit":
      await session.writeInput(SUBMIT_BYTES); // INPUT-12
      return inputResult(session, messages.submitted(session.id));
    case "paste": {
      const { text, bracketed } = call;
      const payload = bracketed ? BRACKETED_PASTE_START + text + BRACKETED_PASTE_END : text;
      if (payload === "") return failure(messages.NO_PASTE_TEXT); // INPUT-15
      await session.writeInput(payload);
      return inputResult(session, messages.pasted(text.length, session.id));
    }
  }
}
