// Derived session name: command verb + target, for quick scanning in `process list` (NAME-01…NAME-05).

import { NAME_TARGET_MAX } from "./settings.js";

const ELLIPSIS = "...";

/** NAME-04: keeps both ends of `s` around `...` when it is longer than `max` UTF-16 code units. */
export function truncateMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const keep = Math.max(0, Math.floor((max - ELLIPSIS.length) / 2));
  return s.slice(0, keep) + ELLIPSIS + s.slice(s.length - keep);
}

// NAME-02, as upstream 2026.9.6: tokens are maximal runs of unquoted non-space characters, double-quoted runs
// (a backslash escapes the next character) and single-quoted runs; a quote that is never closed matches nothing and
// is skipped. Shell syntax (escapes outside quotes, operators, assignments) is deliberately not interpreted (NAME-05).
const TOKEN = /(?:[^\s"']+|"(?:\\.|[^"\\])*"|'[^']*')+/g;

function splitTokens(command: string): string[] {
  return (command.match(TOKEN) ?? []).map(stripQuotes).filter((token) => token !== "");
}

/** Trims a token and removes one outer pair of matching quotes. */
function stripQuotes(token: string): string {
  const trimmed = token.trim();
  const first = trimmed.charAt(0);
  const wrapped = trimmed.length >= 2 && (first === '"' || first === "'") && trimmed.endsWith(first);
  return wrapped ? trimmed.slice(1, -1) : trimmed;
}

/** NAME-03: `<verb> <target>` of a command, or undefined when it has no tokens. */
export function deriveSessionName(command: string): string | undefined {
  const [verb, ...rest] = splitTokens(command);
  if (verb === undefined) return undefined;
  const target = rest.find((token) => !token.startsWith("-")) ?? rest[0];
  // Upstream strips the quotes of the verb and the target once more (`"'x'"` names `x`).
  return target === undefined ? verb : `${stripQuotes(verb)} ${truncateMiddle(stripQuotes(target), NAME_TARGET_MAX)}`;
}
