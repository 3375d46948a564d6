// The Linux limits of execve(2) on the size of a new process's arguments and environment. Checked before spawning so
// that pipes and PTY fail alike and clearly: pipes would throw `spawn E2BIG`, and node-pty's child would print
// `execvp(3) failed` and exit 1, which looks like a completed command.
import { readFileSync } from "node:fs";
import { ExecProcessError } from "../errors.js";
import type { SpawnRequest } from "./child-handle.js";

/** MAX_ARG_STRLEN: one argument or `KEY=value` entry, its terminating NUL included (32 pages of 4 KiB). */
export const MAX_ARG_STRLEN_BYTES = 131_072;
/** The kernel never allows less than this for all arguments and entries together (ARG_MAX of limits.h). */
const MIN_ARG_MAX_BYTES = 131_072;
/** `_STK_LIM`: the kernel caps the total at three quarters of it, whatever the stack limit. */
const STACK_LIMIT_CAP_BYTES = 8 * 1024 * 1024;
const POINTER_BYTES = 8;

let argMaxBytes: number | undefined;

/** Linux fs/exec.c: min(stack soft limit / 4, 3/4 of _STK_LIM), at least ARG_MAX. Read once from /proc. */
function argMax(): number {
  if (argMaxBytes !== undefined) return argMaxBytes;
  let stackBytes = Infinity;
  try {
    const line = readFileSync("/proc/self/limits", "latin1").split("\n").find((l) => l.startsWith("Max stack size"));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft !== undefined && /^\d+$/.test(soft)) stackBytes = Number(soft);
  } catch {
    // not Linux: the cap alone applies
  }
  argMaxBytes = Math.max(MIN_ARG_MAX_BYTES, Math.min((STACK_LIMIT_CAP_BYTES / 4) * 3, stackBytes / 4));
  return argMaxBytes;
}

// A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4 bytes): when the strings fit even
// at 3 bytes a unit, they fit. This spares every exec the byte count of each environment entry (most of the check's
// time: ~18 µs of a ~35-entry environment, per call).
const MAX_UTF8_BYTES_PER_UNIT = 3;

function fitsByLength(request: SpawnRequest): boolean {
  const upperBound = (text: string): number => text.length * MAX_UTF8_BYTES_PER_UNIT + 1;
  let total = 0;
  for (const text of [request.shell, ...request.args]) total += upperBound(text) + POINTER_BYTES;
  const command = upperBound(request.command);
  if (command > MAX_ARG_STRLEN_BYTES) return false;
  total += command + POINTER_BYTES;
  for (const key in request.env) {
    const entry = upperBound(key) + 1 + (request.env[key] ?? "").length * MAX_UTF8_BYTES_PER_UNIT; // KEY=value
    if (entry > MAX_ARG_STRLEN_BYTES) return false;
    total += entry + POINTER_BYTES;
  }
  return total <= argMax();
}

/** The E2BIG error for a request that execve would refuse, or undefined when it fits (Linux only). */
export function execLimitError(request: SpawnRequest): ExecProcessError | undefined {
  if (process.platform !== "linux" || fitsByLength(request)) return undefined;
  const args = [request.shell, ...request.args, request.command];
  const entries = Object.entries(request.env).map(([key, value]) => [key, `${key}=${value}`] as const);
  const commandBytes = Buffer.byteLength(request.command);
  if (commandBytes + 1 > MAX_ARG_STRLEN_BYTES) {
    return new ExecProcessError({ code: "argument-too-large", param: "command", bytes: commandBytes, limitBytes: MAX_ARG_STRLEN_BYTES });
  }
  for (const [key, entry] of entries) {
    const bytes = Buffer.byteLength(entry);
    if (bytes + 1 > MAX_ARG_STRLEN_BYTES) {
      return new ExecProcessError({ code: "argument-too-large", param: "env", key, bytes, limitBytes: MAX_ARG_STRLEN_BYTES });
    }
  }
  const strings = [...args, ...entries.map(([, entry]) => entry)];
  const total = strings.reduce((sum, s) => sum + Buffer.byteLength(s) + 1 + POINTER_BYTES, 0);
  const limit = argMax();
  return total > limit ? new ExecProcessError({ code: "arguments-too-large", param: "command", bytes: total, limitBytes: limit }) : undefined;
}
