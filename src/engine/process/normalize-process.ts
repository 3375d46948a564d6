// One pipeline from raw process arguments to a typed call per action (§7.1), as normalizeExecParams is for exec:
// the action (PROC-02), then the session id (PROC-03), then each parameter the action uses, with its default.
// Parameters that the action does not use are dropped (PROC-05). The actions never read raw arguments.
import * as messages from "../messages.js";
import { POLL_MAX_WAIT_MS } from "../settings.js";
import type { ProcessParams } from "../types.js";

export const PROCESS_ACTIONS = ["list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"] as const;
export type ProcessAction = (typeof PROCESS_ACTIONS)[number];

/** An action on one session. */
interface SessionCall<A extends ProcessAction> {
  action: A;
  sessionId: string;
}

export type ListCall = { action: "list" };
/** POLL-07, POLL-08: the longest wait, in ms (0–30000). */
export type PollCall = SessionCall<"poll"> & { timeoutMs: number };
/** LOG-05 … LOG-08: the line window; undefined when not a finite number (floored and clamped when sliced). */
export type LogCall = SessionCall<"log"> & { offset: number | undefined; limit: number | undefined };
/** INPUT-08, INPUT-09: `data` defaults to "". */
export type WriteCall = SessionCall<"write"> & { data: string; eof: boolean };
/** KEYS: only the string entries of `keys` and `hex`; each source undefined when not given as its type. */
export type SendKeysCall = SessionCall<"send-keys"> & {
  keys: string[] | undefined; hex: string[] | undefined; literal: string | undefined;
};
export type SubmitCall = SessionCall<"submit">;
/** INPUT-14: `text` defaults to "", `bracketed` to true. */
export type PasteCall = SessionCall<"paste"> & { text: string; bracketed: boolean };
export type KillCall = SessionCall<"kill">;
export type ClearCall = SessionCall<"clear">;
export type RemoveCall = SessionCall<"remove">;

export type InputCall = WriteCall | SendKeysCall | SubmitCall | PasteCall;
export type NormalizedProcess = ListCall | PollCall | LogCall | InputCall | KillCall | ClearCall | RemoveCall;

/** A normalized call, or the text of the returned failure (PROC-04) that refuses the arguments. */
export type ProcessParamsCheck = { ok: true; call: NormalizedProcess } | { ok: false; text: string };

export function normalizeProcessParams(params: ProcessParams): ProcessParamsCheck {
  const action = params.action;
  if (typeof action !== "string" || !(PROCESS_ACTIONS as readonly string[]).includes(action)) {
    return { ok: false, text: messages.INVALID_ACTION }; // PROC-02
  }
  if (action === "list") return { ok: true, call: { action } };
  const sessionId = params.sessionId;
  if (typeof sessionId !== "string" || sessionId === "") return { ok: false, text: messages.SESSION_ID_REQUIRED }; // PROC-03
  return { ok: true, call: sessionCall(action as Exclude<ProcessAction, "list">, sessionId, params) };
}

function sessionCall(action: Exclude<ProcessAction, "list">, sessionId: string, params: ProcessParams): NormalizedProcess {
  switch (action) {
    case "poll": return { action, sessionId, timeoutMs: parsePollTimeout(params.timeout) };
    case "log": return { action, sessionId, offset: finiteNumber(params.offset), limit: finiteNumber(params.limit) };
    case "write": return { action, sessionId, data: typeof params.data === "string" ? params.data : "", eof: params.eof === true };
    case "send-keys":
      return {
        action, sessionId, keys: stringArray(params.keys), hex: stringArray(params.hex),
        literal: typeof params.literal === "string" ? params.literal : undefined,
      };
    case "paste":
      return { action, sessionId, text: typeof params.text === "string" ? params.text : "", bracketed: params.bracketed !== false };
    case "submit":
    case "kill":
    case "clear":
    case "remove":
      return { action, sessionId };
  }
}

/** POLL-08: numbers floored, digit strings parsed, both clamped to 0–30000; anything else is 0. */
export function parsePollTimeout(value: unknown): number {
  let ms = 0;
  if (typeof value === "number" && Number.isFinite(value)) ms = Math.floor(value);
  else if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) ms = Number.parseInt(value.trim(), 10);
  return Math.min(POLL_MAX_WAIT_MS, Math.max(0, ms));
}

const finiteNumber = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

const stringArray = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
