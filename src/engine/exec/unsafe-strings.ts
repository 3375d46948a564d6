// Strings that no process can be started with: a NUL byte ends a C string, so the OS would silently cut the command,
// path or variable there (node-pty does) or Node would throw its own internal error (pipes). Refused up front instead.
import { ExecProcessError } from "../errors.js";
import * as messages from "../messages.js";

const NUL = "\u0000";

/**
 * Throws the NUL-byte error for the command, or for the env variable `key`, when `value` holds one (EXEC-28: the
 * command is never cut short).
 */
export function assertNoNulByte(param: "command" | "env", value: string, key?: string): void {
  const index = value.indexOf(NUL);
  if (index >= 0) throw new ExecProcessError({ code: "unsafe-string", param, index, ...(key !== undefined ? { key } : {}) });
}

/** The NUL-byte text for `parameter`, or undefined when `value` is safe. */
export function nulByteText(parameter: string, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const index = value.indexOf(NUL);
  return index < 0 ? undefined : messages.nulByteIn(parameter, index);
}
