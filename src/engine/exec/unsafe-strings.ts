// Strings that no process can be started with: a NUL byte ends a C string, so the OS would silently cut the command,
// path or variable there (node-pty does) or Node would throw its own internal error (pipes). Refused up front instead.
import * as messages from "../messages.js";

const NUL = "\u0000";

/** Throws the NUL-byte text for `parameter` when `value` holds one (EXEC-28: the command is never cut short). */
export function assertNoNulByte(parameter: string, value: string): void {
  const text = nulByteText(parameter, value);
  if (text !== undefined) throw new Error(text);
}

/** The NUL-byte text for `parameter`, or undefined when `value` is safe. */
export function nulByteText(parameter: string, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const index = value.indexOf(NUL);
  return index < 0 ? undefined : messages.nulByteIn(parameter, index);
}
