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

export interface OutputSanitizer {
  /** Sanitizes the next chunk; a trailing incomplete sequence is held back for the next call. */
  write(chunk: Uint8Array | string): string;
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

/** Anything that needs more than a verbatim copy: controls, C1, format characters, surrogates. */
const SPECIAL_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Cs}]/u;
const SEQUENCE_START = /[\x1b\x9b\x9d]/g;
const OSC_END = /[\x07\x1b\x9c]/g;
const CONTROL_STRING_END = /[\x1b\x9c]/g;
const REPLACED_CHAR = /[\p{Cf}\p{Cs}]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/gu;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isPrintableAscii = (code: number): boolean => code >= 0x20 && code <= 0x7e;
const isCharsetIntermediate = (code: number): boolean =>
  code === 0x28 || code === 0x29 || code === 0x2a || code === 0x2b || (code >= 0x2d && code <= 0x2f);
const isCsiParam = (code: number): boolean => code >= 0x30 && code <= 0x3f;
const isCsiIntermediate = (code: number): boolean => code >= 0x20 && code <= 0x2f;
const isCsiFinal = (code: number): boolean => code >= 0x40 && code <= 0x7e;

// OUT-05 removes format characters and lone surrogates; OUT-06 spells controls as `\xNN`.
function replaceChar(match: string): string {
  const code = match.charCodeAt(0);
  if (match.length > 1 || code > 0x9f) return "";
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

// Index of the next match of a global pattern at or after `from`, or -1.
function findFrom(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index;
}

// Creates a sanitizer for one stream; state carries over between write() calls (OUT-04).
export function createOutputSanitizer(): OutputSanitizer {
  const decoder = new TextDecoder("utf-8");
  let state: number = GROUND;
  // A high surrogate at the end of the stripped text waits for its low half (split string chunks).
  let heldHighSurrogate = "";

  function stripSequences(text: string): string {
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
          i++;
          if (code === 0x5b) state = CSI_PARAMS;
          else if (code === 0x5d) state = OSC;
          else if (code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) state = CONTROL_STRING;
          else if (isCharsetIntermediate(code)) state = CHARSET;
          else state = GROUND;
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
          if (end < 0) return out;
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
    return out;
  }

  function sanitizeText(text: string): string {
    if (state === GROUND && heldHighSurrogate === "" && !SPECIAL_CHAR.test(text)) return text;
    let stripped = heldHighSurrogate + stripSequences(text);
    heldHighSurrogate = "";
    if (stripped.length > 0 && isHighSurrogate(stripped.charCodeAt(stripped.length - 1))) {
      heldHighSurrogate = stripped.slice(-1);
      stripped = stripped.slice(0, -1);
    }
    return stripped.replace(REPLACED_CHAR, replaceChar);
  }

  return {
    write(chunk) {
      if (typeof chunk === "string") {
        // Bytes still buffered in the decoder precede this text; they can no longer complete a character.
        const flushed = decoder.decode();
        return sanitizeText(flushed + chunk);
      }
      return sanitizeText(decoder.decode(chunk, { stream: true }));
    },
    end() {
      const out = sanitizeText(decoder.decode());
      // OUT-04: a sequence still incomplete at end of stream is dropped; OUT-05: a held surrogate is lone.
      state = GROUND;
      heldHighSurrogate = "";
      return out;
    },
  };
}
