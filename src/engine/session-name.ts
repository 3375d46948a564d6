// Derived session name: command verb + target, for quick scanning in `process list` (NAME-01…NAME-05).

import { NAME_TARGET_MAX } from "./settings.js";

const ELLIPSIS = "...";
const WHITESPACE = /\s/;

/** NAME-04: keeps both ends of `s` around `...` when it is longer than `max` UTF-16 code units. */
export function truncateMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const keep = Math.max(0, Math.floor((max - ELLIPSIS.length) / 2));
  return s.slice(0, keep) + ELLIPSIS + s.slice(s.length - keep);
}

// NAME-02: split on whitespace outside quotes; quoted runs stay inside their token with their characters.
// Shell syntax (escapes outside quotes, operators, assignments) is deliberately not interpreted (NAME-05).
function splitTokens(command: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const ch = command.charAt(i);
    if (quote !== null) {
      current += ch;
      const closes = ch === quote && (quote === "'" || command.charAt(i - 1) !== "\\");
      if (closes) quote = null;
    } else if (WHITESPACE.test(ch)) {
      tokens.push(current);
      current = "";
    } else {
      current += ch;
      if (ch === '"' || ch === "'") quote = ch;
    }
  }
  tokens.push(current);
  return tokens.map(unwrapQuotes).filter((token) => token !== "");
}

function unwrapQuotes(token: string): string {
  const first = token.charAt(0);
  const wrapped = token.length >= 2 && (first === '"' || first === "'") && token.endsWith(first);
  return wrapped ? token.slice(1, -1) : token;
}

/** NAME-03: `<verb> <target>` of a command, or undefined when it has no tokens. */
export function deriveSessionName(command: string): string | undefined {
  const [verb, ...rest] = splitTokens(command);
  if (verb === undefined) return undefined;
  const target = rest.find((token) => !token.startsWith("-")) ?? rest[0];
  return target === undefined ? verb : `${verb} ${truncateMiddle(target, NAME_TARGET_MAX)}`;
}
