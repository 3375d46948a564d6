import { invalidHexByte, unknownModifiedKey } from "./messages.js";

/** DECCKM state of a session's terminal (KEYS-12); `unknown` until the program announces it. */
export type CursorKeyMode = "unknown" | "normal" | "application";

/** Raw `send-keys` payload parts, in the order they are sent (KEYS-02). */
export interface SendKeysInput {
  literal?: string;
  hex?: string[];
  keys?: string[];
}

/** Encoded `send-keys` payload plus the warnings collected while encoding it. */
export interface EncodedSendKeys {
  bytes: Buffer;
  warnings: string[];
}

const ESC = "\x1b";

/** Wraps pasted text when bracketed paste is on (INPUT-14). */
export const BRACKETED_PASTE_START = `${ESC}[200~`;
export const BRACKETED_PASTE_END = `${ESC}[201~`;
/** What `submit` writes: exactly one carriage return (INPUT-12). */
export const SUBMIT_BYTES = "\r";
/** Written to a PTY for `eof: true` (PTY-07). */
export const EOF_CHAR = "\x04";

interface KeyModifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

interface ParsedKeyToken {
  base: string;
  modifiers: KeyModifiers;
  hasModifiers: boolean;
}

interface NamedKey {
  sequence: string;
  /** Parameters of the xterm modified form `ESC[<param>;<m><final>`; present only for KEYS-09 keys. */
  modified?: { param: number; final: string };
  /** Unmodified sequence in application cursor mode (KEYS-07 step 5). */
  application?: string;
}

const arrowKey = (final: string): NamedKey => ({
  sequence: `${ESC}[${final}`,
  modified: { param: 1, final },
  application: `${ESC}O${final}`,
});
const tildeKey = (param: number, application?: string): NamedKey => ({
  sequence: `${ESC}[${param}~`,
  modified: { param, final: "~" },
  ...(application === undefined ? {} : { application }),
});
const plainKey = (sequence: string): NamedKey => ({ sequence });
const ss3Key = (final: string): NamedKey => plainKey(`${ESC}O${final}`);

// KEYS-08, keyed by lower-case alias.
const NAMED_KEYS: ReadonlyMap<string, NamedKey> = new Map(
  (
    [
      [["enter", "return"], plainKey("\r")],
      [["tab"], plainKey("\t")],
      [["escape", "esc"], plainKey(ESC)],
      [["space"], plainKey(" ")],
      [["bspace", "backspace"], plainKey("\x7f")],
      [["up"], arrowKey("A")],
      [["down"], arrowKey("B")],
      [["right"], arrowKey("C")],
      [["left"], arrowKey("D")],
      [["home"], tildeKey(1, `${ESC}OH`)],
      [["end"], tildeKey(4, `${ESC}OF`)],
      [["pageup", "pgup", "ppage"], tildeKey(5)],
      [["pagedown", "pgdn", "npage"], tildeKey(6)],
      [["insert", "ic"], tildeKey(2)],
      [["delete", "del", "dc"], tildeKey(3)],
      [["btab"], plainKey(`${ESC}[Z`)],
      [["f1"], ss3Key("P")],
      [["f2"], ss3Key("Q")],
      [["f3"], ss3Key("R")],
      [["f4"], ss3Key("S")],
      [["f5"], plainKey(`${ESC}[15~`)],
      [["f6"], plainKey(`${ESC}[17~`)],
      [["f7"], plainKey(`${ESC}[18~`)],
      [["f8"], plainKey(`${ESC}[19~`)],
      [["f9"], plainKey(`${ESC}[20~`)],
      [["f10"], plainKey(`${ESC}[21~`)],
      [["f11"], plainKey(`${ESC}[23~`)],
      [["f12"], plainKey(`${ESC}[24~`)],
      [["kp/"], ss3Key("o")],
      [["kp*"], ss3Key("j")],
      [["kp-"], ss3Key("m")],
      [["kp+"], ss3Key("k")],
      [["kp7"], ss3Key("w")],
      [["kp8"], ss3Key("x")],
      [["kp9"], ss3Key("y")],
      [["kp4"], ss3Key("t")],
      [["kp5"], ss3Key("u")],
      [["kp6"], ss3Key("v")],
      [["kp1"], ss3Key("q")],
      [["kp2"], ss3Key("r")],
      [["kp3"], ss3Key("s")],
      [["kp0"], ss3Key("p")],
      [["kp."], ss3Key("n")],
      [["kpenter"], ss3Key("M")],
    ] satisfies [string[], NamedKey][]
  ).flatMap(([aliases, key]) => aliases.map((alias): [string, NamedKey] => [alias, key])),
);

// The keys whose bytes depend on the cursor mode (KEYS-06, KEYS-07 step 5).
const CURSOR_KEYS: ReadonlySet<string> = new Set(["up", "down", "left", "right", "home", "end"]);

// Control character of `char` by KEYS-07 step 2's rule, or undefined when the rule does not apply.
function toControlChar(char: string): string | undefined {
  if (char === "?") return "\x7f";
  // The upper-case form must itself be one character in U+0040–U+005F ("ß" → "SS" is not).
  const upper = char.toUpperCase();
  if (upper.length !== 1) return undefined;
  const code = upper.charCodeAt(0);
  return code >= 0x40 && code <= 0x5f ? String.fromCharCode(code & 0x1f) : undefined;
}

// KEYS-07 step 3; shared by the encoder and the KEYS-06 guard so both agree on what "modified" means.
function parseKeyToken(token: string): ParsedKeyToken {
  const modifiers: KeyModifiers = { ctrl: false, alt: false, shift: false };
  let rest = token;
  let hasModifiers = false;
  while (rest.length > 2 && rest[1] === "-") {
    const prefix = rest[0]?.toLowerCase();
    if (prefix === "c") modifiers.ctrl = true;
    else if (prefix === "m") modifiers.alt = true;
    else if (prefix === "s") modifiers.shift = true;
    else break;
    hasModifiers = true;
    rest = rest.slice(2);
  }
  return { base: rest, modifiers, hasModifiers };
}

const xtermModifier = ({ shift, alt, ctrl }: KeyModifiers): number =>
  1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0);

// KEYS-07 step 7.
function encodeCharacter(char: string, { ctrl, alt, shift }: KeyModifiers): string {
  let encoded = shift && char >= "a" && char <= "z" ? char.toUpperCase() : char;
  if (ctrl) encoded = toControlChar(encoded) ?? encoded;
  return alt ? ESC + encoded : encoded;
}

// KEYS-07: one `keys` token to its sequence (as a string, UTF-8 encoded by the caller).
function encodeKeyToken(raw: string, cursorMode: CursorKeyMode): { sequence: string; warning?: string } {
  const token = raw.trim();
  if (token === "") return { sequence: "" };
  if (token.length === 2 && token[0] === "^") {
    const control = toControlChar(token.slice(1));
    if (control !== undefined) return { sequence: control };
  }
  const { base, modifiers, hasModifiers } = parseKeyToken(token);
  const name = base.toLowerCase();
  if (name === "tab" && modifiers.shift) return { sequence: `${ESC}[Z` };
  const named = NAMED_KEYS.get(name);
  if (named !== undefined) {
    if (cursorMode === "application" && !hasModifiers && named.application !== undefined) {
      return { sequence: named.application };
    }
    if (named.modified !== undefined && hasModifiers) {
      const { param, final } = named.modified;
      return { sequence: `${ESC}[${param};${xtermModifier(modifiers)}${final}` };
    }
    return { sequence: modifiers.alt ? ESC + named.sequence : named.sequence };
  }
  // "Single character" counts UTF-16 code units, like the two-character `^X` rule.
  if (base.length === 1) return { sequence: encodeCharacter(base, modifiers) };
  return hasModifiers ? { sequence: base, warning: unknownModifiedKey(base) } : { sequence: base };
}

const HEX_BYTE = /^[0-9a-f]{1,2}$/;

// KEYS-03: one `hex` entry to its byte, or undefined when it is invalid.
function parseHexByte(entry: string): number | undefined {
  const normalized = entry.trim().toLowerCase();
  const digits = normalized.startsWith("0x") ? normalized.slice(2) : normalized;
  return HEX_BYTE.test(digits) ? Number.parseInt(digits, 16) : undefined;
}

/** Builds the `send-keys` payload: literal, then hex bytes, then key tokens (KEYS-02, KEYS-03, KEYS-07). */
export function encodeSendKeys(input: SendKeysInput, cursorMode: CursorKeyMode): EncodedSendKeys {
  const parts: Buffer[] = [];
  const warnings: string[] = [];
  if (input.literal !== undefined && input.literal !== "") parts.push(Buffer.from(input.literal, "utf8"));
  const hexBytes: number[] = [];
  for (const entry of input.hex ?? []) {
    const byte = parseHexByte(entry);
    if (byte === undefined) warnings.push(invalidHexByte(entry));
    else hexBytes.push(byte);
  }
  parts.push(Buffer.from(hexBytes));
  for (const token of input.keys ?? []) {
    const { sequence, warning } = encodeKeyToken(token, cursorMode);
    parts.push(Buffer.from(sequence, "utf8"));
    if (warning !== undefined) warnings.push(warning);
  }
  return { bytes: Buffer.concat(parts), warnings };
}

/** True when `keys` holds an unmodified cursor key, which KEYS-06 refuses while the mode is unknown. */
export function hasUnmodifiedCursorKey(keys: string[] | undefined): boolean {
  return (keys ?? []).some((raw) => {
    const { base, hasModifiers } = parseKeyToken(raw.trim());
    return !hasModifiers && CURSOR_KEYS.has(base.toLowerCase());
  });
}
