// Finds the frame the remote command line prints before the command runs, wherever the login shell's startup
// output (a .bashrc banner, conda or nvm lines) puts it, and drops that startup output (issue 20).
import { FRAME_MARK } from "./remote-command.js";

/** How much startup output is searched for the frame before the stream is passed on as it is. */
export const PREAMBLE_LIMIT_BYTES = 64 * 1024;
const MARK_BYTE = FRAME_MARK.charCodeAt(0);
/** A frame's fields (`:<pid>:<start time>`) are short; a longer one is not ours. */
const MAX_FIELDS_BYTES = 64;

export interface PreambleReader {
  write(chunk: Buffer): void;
  /** The stream ended: anything still held is passed on. */
  end(): void;
}

/** Why no frame was found: more than PREAMBLE_LIMIT_BYTES came without one, or the stream ended first. */
export type NoFrame = "limit" | "end";

/**
 * Holds a stream's first bytes until `<mark><marker><fields><mark>` arrives, reports `fields` (the text between the
 * marker and the closing mark) and passes on only what follows the frame. Without a frame that starts in the first
 * PREAMBLE_LIMIT_BYTES (or by the end) it reports undefined with the reason and passes everything on.
 */
export function createPreambleReader(
  marker: string, onFrame: (fields: string | undefined, missing?: NoFrame) => void, forward: (chunk: Buffer) => void,
): PreambleReader {
  const opening = Buffer.from(`${FRAME_MARK}${marker}`, "latin1");
  let held: Buffer | undefined = Buffer.alloc(0);
  let searchFrom = 0;
  const giveUp = (reason: NoFrame): void => {
    const all = held;
    held = undefined;
    if (all && all.length > 0) forward(all);
    onFrame(undefined, reason);
  };
  return {
    write(chunk) {
      if (!held) return forward(chunk);
      held = Buffer.concat([held, chunk]);
      for (;;) {
        const start = held.indexOf(opening, searchFrom);
        if (start === -1 || start >= PREAMBLE_LIMIT_BYTES) {
          // A frame must start in the first PREAMBLE_LIMIT_BYTES, however the stream was chunked.
          if (start >= PREAMBLE_LIMIT_BYTES || held.length >= PREAMBLE_LIMIT_BYTES + opening.length) return giveUp("limit");
          searchFrom = Math.max(0, held.length - opening.length + 1);
          return;
        }
        const fieldsAt = start + opening.length;
        const end = held.indexOf(MARK_BYTE, fieldsAt);
        if (end === -1 && held.length - fieldsAt <= MAX_FIELDS_BYTES) {
          searchFrom = start; // the frame's end is still to come
          return;
        }
        if (end === -1 || end - fieldsAt > MAX_FIELDS_BYTES) {
          searchFrom = start + 1; // not a frame of ours after all
          continue;
        }
        const fields = held.subarray(fieldsAt, end).toString("latin1");
        const rest = held.subarray(end + 1);
        held = undefined;
        onFrame(fields);
        if (rest.length > 0) forward(rest);
        return;
      }
    },
    end() {
      if (held) giveUp("end");
    },
  };
}
