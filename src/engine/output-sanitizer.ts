// Per-stream output sanitizer: UTF-8 decoding (OUT-03), escape-sequence removal (OUT-04),
// format-character and lone-surrogate removal (OUT-05) and control-character escaping (OUT-06).
//
// Decisions where OUT-04 is silent:
// - A CSI is `introducer params* intermediates* final`. Any other character inside it (a control, a
//   character >= U+0080, or a parameter character after an intermediate) ends the malformed sequence
//   without output, and that character is then processed as ordinary input (an ESC starts a new sequence).
// - Inside OSC and DCS/SOS/PM/APC strings every character up to the terminator is removed; an ESC that is
//   not followed by `\` is part of the string.
// - A charset designation takes its final character from U+0020–U+007E; any other character leaves
//   `ESC (` as a complete two-character escape and is processed as ordinary input.
// - ESC followed by a character outside U+0020–U+007E starts no sequence: the ESC is output as `\x1b`
//   (OUT-06) and the next character is processed as ordinary input.
// - Escape removal runs first, so a surrogate pair interrupted only by an escape sequence is rejoined.
//
// Fast path: a byte chunk of plain ASCII (isPlainAscii) arriving in the ground state, with no character held
// back, is its own sanitized text: writeText returns those bytes undecoded.
import { decodeText, type OutputText } from "./output-text.js";
import { isPlainAscii } from "./plain-ascii.js";

export interface OutputSanitizer {
  /** Sanitizes the next chunk; a trailing incomplete sequence is held back for the next call. */
  write(chunk: Uint8Array | string): string;
  /**
   * As write, but a plain ASCII byte chunk comes back as the same bytes, to be decoded only if it is read.
   * The caller must not modify the chunk afterwards.
   */
  writeText(chunk: Uint8Array | string): OutputText;
  /** Flushes the stream: drops incomplete sequences and returns what is left. */
  end(): string;
}

const ESC = 0x1b;
const C1_CSI = 0x9b;
const BACKSLASH = 0x5c;

const GROUND = 0;
const ESCAPE = 1;
const CSI_PARAMS = 2;
const CSI_INTERMEDIATES = 3;
const OSC = 4;
const OSC_ESCAPE = 5;
const CONTROL_STRING = 6;
const CONTROL_STRING_ESCAPE = 7;
const CHARSET = 8;

// Characters after ESC that open a longer sequence; any other U+0020–U+007E ends a two-character escape.
const STATE_AFTER_ESCAPE = new Map<number, number>();
for (const [chars, next] of [["[", CSI_PARAMS], ["]", OSC], ["PX^_", CONTROL_STRING], ["()*+-./", CHARSET]] as const) {
  for (const char of chars) STATE_AFTER_ESCAPE.set(char.charCodeAt(0), next);
}
const SEQUENCE_START = /[\x1b\x9b\x9d]/g;
const OSC_END = /[\x07\x1b\x9c]/g;
const CONTROL_STRING_END = /[\x1b\x9c]/g;
const FORMAT_CHAR = /^\p{Cf}$/u;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const isPrintableAscii = (code: number): boolean => code >= 0x20 && code <= 0x7e;
const isCsiParam = (code: number): boolean => code >= 0x30 && code <= 0x3f;
const isCsiIntermediate = (code: number): boolean => code >= 0x20 && code <= 0x2f;
const isCsiFinal = (code: number): boolean => code >= 0x40 && code <= 0x7e;

// Per-code-unit treatment after escape removal, precomputed for the BMP so the hot loop is a lookup.
const KEEP = 0;
const ESCAPE_CONTROL = 1;
const REMOVE = 2;
const HIGH_SURROGATE = 3;
// The BMP code units that are not kept as they are, as ranges [first, last]: the controls but tab, line feed and
// carriage return (OUT-06), the surrogates (a high one followed by a low one is kept) and the format characters (OUT-05).
const SPECIAL_RANGES = mergeRanges([
  [0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f], [0x7f, 0x9f], [0xd800, 0xdfff],
  ...bmpFormatChars().map((code): Range => [code, code]),
]);
const CHAR_KINDS = buildCharKinds();
// OUT-06 spelling of each control character, indexed by code.
const CONTROL_ESCAPES = Array.from({ length: 0xa0 }, (_, code) => `\\x${code.toString(16).padStart(2, "0")}`);
// Cf lookup for astral code points, filled lazily per block of 256 code points.
const ASTRAL_BLOCK_BITS = 8;
const astralFormatBlocks = new Map<number, Uint8Array>();

type Range = [first: number, last: number];

/** Sorted, with overlapping and adjacent ranges joined. */
function mergeRanges(ranges: Range[]): Range[] {
  const merged: Range[] = [];
  for (const [first, last] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const previous = merged.at(-1);
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return merged;
}

/** Filled by ranges (typed-array fills), not code by code: this table is built at every process start. */
function buildCharKinds(): Uint8Array {
  const kinds = new Uint8Array(0x10000); // KEEP
  for (const [first, last] of SPECIAL_RANGES) kinds.fill(REMOVE, first, last + 1);
  kinds.fill(ESCAPE_CONTROL, 0x00, 0x20).fill(ESCAPE_CONTROL, 0x7f, 0xa0);
  for (const kept of [0x09, 0x0a, 0x0d]) kinds[kept] = KEEP;
  kinds.fill(HIGH_SURROGATE, 0xd800, 0xdc00);
  return kinds;
}

/**
 * The format characters (Cf) of the BMP outside the surrogates: one regex scan over all of them at once, since a test
 * per code point made this table a few milliseconds of every process start.
 */
function bmpFormatChars(): number[] {
  const units = new Uint16Array(0x10000 - 0x800);
  for (let code = 0; code < 0xd800; code++) units[code] = code;
  for (let code = 0xe000; code < 0x10000; code++) units[code - 0x800] = code;
  const all = new TextDecoder("utf-16le").decode(units);
  return [...all.matchAll(/\p{Cf}/gu)].map((match) => match[0].charCodeAt(0));
}

function isAstralFormatChar(codePoint: number): boolean {
  const blockIndex = codePoint >> ASTRAL_BLOCK_BITS;
  let block = astralFormatBlocks.get(blockIndex);
  if (block === undefined) {
    block = new Uint8Array(1 << ASTRAL_BLOCK_BITS);
    for (let k = 0; k < block.length; k++) {
      block[k] = FORMAT_CHAR.test(String.fromCodePoint((blockIndex << ASTRAL_BLOCK_BITS) | k)) ? 1 : 0;
    }
    astralFormatBlocks.set(blockIndex, block);
  }
  return block[codePoint & ((1 << ASTRAL_BLOCK_BITS) - 1)] === 1;
}

// Matches one code unit whose kind is not KEEP, so that the scan runs in the regex engine.
const SPECIAL_UNIT = specialUnitPattern(SPECIAL_RANGES);

function specialUnitPattern(ranges: Range[]): RegExp {
  const hex = (code: number): string => `\\u${code.toString(16).padStart(4, "0")}`;
  const classes = ranges.map(([first, last]) => (first === last ? hex(first) : `${hex(first)}-${hex(last)}`));
  return new RegExp(`[${classes.join("")}]`, "g");
}

// OUT-05 removes format characters and lone surrogates; OUT-06 spells other controls as `\xNN`.
function replaceSpecialChars(text: string): string {
  let out = "";
  let runStart = 0;
  SPECIAL_UNIT.lastIndex = 0;
  while (SPECIAL_UNIT.test(text)) {
    const i = SPECIAL_UNIT.lastIndex - 1;
    const code = text.charCodeAt(i);
    const kind = CHAR_KINDS[code];
    if (kind === HIGH_SURROGATE && isLowSurrogate(text.charCodeAt(i + 1))) {
      SPECIAL_UNIT.lastIndex = i + 2;
      const codePoint = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00);
      if (!isAstralFormatChar(codePoint)) continue;
      out += text.slice(runStart, i);
      runStart = i + 2;
      continue;
    }
    out += text.slice(runStart, i);
    if (kind === ESCAPE_CONTROL) out += CONTROL_ESCAPES[code];
    runStart = i + 1;
  }
  if (runStart === 0) return text;
  return runStart < text.length ? out + text.slice(runStart) : out;
}

// Index of the next match of a global pattern at or after `from`, or -1.
function findFrom(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(text) ? pattern.lastIndex - 1 : -1;
}

// Creates a sanitizer for one stream; state carries over between write() calls (OUT-04).
export function createOutputSanitizer(): OutputSanitizer {
  return new StreamSanitizer();
}

// A class, not closures: the session calls writeText for every chunk, and optimized code that inlined one
// sanitizer's closure would be thrown away with that session (bench/README.md, issue 36 item 4).
class StreamSanitizer implements OutputSanitizer {
  // Made at the first chunk that needs decoding: most sessions' output is plain ASCII or empty (issue 36).
  #utf8: InstanceType<typeof TextDecoder> | undefined;
  #state: number = GROUND;
  // A high surrogate at the end of the stripped text waits for its low half (split string chunks).
  #heldHighSurrogate = "";

  #decode(chunk?: Uint8Array, options?: { stream: boolean }): string {
    if (this.#utf8 === undefined) {
      if (chunk === undefined || chunk.length === 0) return ""; // nothing was buffered yet
      this.#utf8 = new TextDecoder("utf-8");
    }
    return this.#utf8.decode(chunk, options);
  }

  #stripSequences(text: string): string {
    let state = this.#state;
    let out = "";
    let i = 0;
    const n = text.length;
    while (i < n) {
      const code = text.charCodeAt(i);
      switch (state) {
        case GROUND: {
          const start = findFrom(SEQUENCE_START, text, i);
          if (start < 0) {
            out += i === 0 ? text : text.slice(i);
            this.#state = state;
            return out;
          }
          if (start > i) out += text.slice(i, start);
          const introducer = text.charCodeAt(start);
          state = introducer === ESC ? ESCAPE : introducer === C1_CSI ? CSI_PARAMS : OSC;
          i = start + 1;
          break;
        }
        case ESCAPE:
          if (!isPrintableAscii(code)) {
            out += "\x1b";
            state = GROUND;
            break;
          }
          state = STATE_AFTER_ESCAPE.get(code) ?? GROUND;
          i++;
          break;
        case CSI_PARAMS:
        case CSI_INTERMEDIATES:
          if (state === CSI_PARAMS && isCsiParam(code)) i++;
          else if (isCsiIntermediate(code)) {
            state = CSI_INTERMEDIATES;
            i++;
          } else {
            if (isCsiFinal(code)) i++;
            state = GROUND;
          }
          break;
        case OSC:
        case CONTROL_STRING: {
          const end = findFrom(state === OSC ? OSC_END : CONTROL_STRING_END, text, i);
          if (end < 0) {
            this.#state = state;
            return out;
          }
          const terminator = text.charCodeAt(end);
          if (terminator === ESC) state = state === OSC ? OSC_ESCAPE : CONTROL_STRING_ESCAPE;
          else state = GROUND;
          i = end + 1;
          break;
        }
        case OSC_ESCAPE:
        case CONTROL_STRING_ESCAPE:
          if (code === BACKSLASH) {
            state = GROUND;
            i++;
          } else if (code === ESC) i++;
          else state = state === OSC_ESCAPE ? OSC : CONTROL_STRING;
          break;
        case CHARSET:
          if (isPrintableAscii(code)) i++;
          state = GROUND;
          break;
      }
    }
    this.#state = state;
    return out;
  }

  #sanitizeText(text: string): string {
    if (text === "" && this.#heldHighSurrogate === "") return ""; // the end of a command without output
    let stripped = this.#heldHighSurrogate + this.#stripSequences(text);
    this.#heldHighSurrogate = "";
    if (stripped.length > 0 && isHighSurrogate(stripped.charCodeAt(stripped.length - 1))) {
      this.#heldHighSurrogate = stripped.slice(-1);
      stripped = stripped.slice(0, -1);
    }
    return replaceSpecialChars(stripped);
  }

  writeText(chunk: Uint8Array | string): OutputText {
    if (typeof chunk === "string") {
      // Bytes still buffered in the decoder precede this text; they can no longer complete a character.
      const flushed = this.#decode();
      return this.#sanitizeText(flushed + chunk);
    }
    if (chunk.length > 0 && this.#state === GROUND && this.#heldHighSurrogate === "" && isPlainAscii(chunk)) {
      // Bytes still buffered in the decoder cannot be completed by ASCII: they decode as U+FFFD, as they would
      // in the stream, and that text takes the general path.
      const flushed = this.#decode();
      return flushed === "" ? chunk : this.#sanitizeText(flushed + decodeText(chunk));
    }
    return this.#sanitizeText(this.#decode(chunk, { stream: true }));
  }

  write(chunk: Uint8Array | string): string {
    return decodeText(this.writeText(chunk));
  }

  end(): string {
    const out = this.#sanitizeText(this.#decode());
    // OUT-04: a sequence still incomplete at end of stream is dropped; OUT-05: a held surrogate is lone.
    this.#state = GROUND;
    this.#heldHighSurrogate = "";
    return out;
  }
}
/** Sanitizes one complete text, such as a label built from the command, exactly as output is (OUT-04 … OUT-06). */
export function sanitizeText(text: string): string {
  const sanitizer = createOutputSanitizer();
  return sanitizer.write(text) + sanitizer.end();
}
