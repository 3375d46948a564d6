// What a terminal's output asks of its reader, handled where the terminal is (PTY-02, KEYS-12, INPUT-16): the
// cursor-key mode the program selected, and cursor-position requests, answered at once and kept out of the output.
import type { CursorKeyMode } from "../key-encoder.js";

export const CURSOR_POSITION_REPLY = "\x1b[1;1R";

const APPLICATION_CURSOR_KEYS = "\x1b[?1h";
const NORMAL_CURSOR_KEYS = "\x1b[?1l";
const CURSOR_POSITION_REQUEST = /\x1b\[\??6n/g;

/** Applies the last DECCKM sequence in a raw output chunk to the current mode (KEYS-12). */
export function trackCursorKeyMode(rawChunk: string, current: CursorKeyMode): CursorKeyMode {
  const application = rawChunk.lastIndexOf(APPLICATION_CURSOR_KEYS);
  const normal = rawChunk.lastIndexOf(NORMAL_CURSOR_KEYS);
  if (application === -1 && normal === -1) return current;
  return application > normal ? "application" : "normal";
}

/** Removes cursor-position requests from raw output and counts them; each needs one reply (INPUT-16). */
export function extractCursorPositionRequests(rawChunk: string): { text: string; requests: number } {
  let requests = 0;
  const text = rawChunk.replace(CURSOR_POSITION_REQUEST, () => {
    requests += 1;
    return "";
  });
  return { text, requests };
}

/**
 * The reader side of one terminal: `read` tracks the cursor-key mode, answers each cursor-position request through
 * `reply` and returns the text without the requests. The mode is `unknown` until the program selects one.
 */
export class TerminalOutput {
  #mode: CursorKeyMode = "unknown";
  readonly #reply: (data: string) => void;

  constructor(reply: (data: string) => void) {
    this.#reply = reply;
  }

  get cursorKeyMode(): CursorKeyMode {
    return this.#mode;
  }

  read(chunk: string): string {
    this.#mode = trackCursorKeyMode(chunk, this.#mode);
    const { text, requests } = extractCursorPositionRequests(chunk);
    for (let i = 0; i < requests; i += 1) this.#reply(CURSOR_POSITION_REPLY);
    return text;
  }
}
