// The sanitizer's fast-path test: is a byte chunk plain text that OUT-03 … OUT-06 would return unchanged?
import { isAscii } from "node:buffer";
import { createSimdScan, type SimdScan } from "./plain-ascii-simd.js";

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const DEL = 0x7f;

// Bit 7 of each byte of a 32-bit word.
const HIGH_BITS = 0x80808080;
// Added to an ASCII word (every byte <= 0x7f), bytes never carry into their neighbour, so each byte's bit 7
// answers a question about that byte alone:
const PLUS_0x60 = 0x60606060; // bit 7 set  <=> byte >= 0x20
const PLUS_0x01 = 0x01010101; // bit 7 set  <=> byte == 0x7f
const PLUS_0x7F = 0x7f7f7f7f; // bit 7 set  <=> byte != 0
const ALL_TAB = 0x09090909;
const ALL_LF = 0x0a0a0a0a;
const ALL_CR = 0x0d0d0d0d;
/** Chunks this long or longer are scanned in SIMD (plain-ascii-simd.ts); shorter ones do not repay the copy. */
export const SIMD_MIN_BYTES = 256;

// Built at the first long chunk, so that a process that never sees one does not pay for it; null: unavailable.
let simdScan: SimdScan | null | undefined;

/** TAB, LF, CR and U+0020–U+007E: the bytes the sanitizer keeps as they are. */
export function isPlainByte(byte: number): boolean {
  return (byte >= 0x20 && byte < DEL) || byte === LF || byte === TAB || byte === CR;
}

// Bit 7 set in each byte of an ASCII word that equals the byte of `pattern` (repeated in all four bytes).
function equalBytes(word: number, pattern: number): number {
  return ~((word ^ pattern) + PLUS_0x7F) & HIGH_BITS;
}

// An ASCII word holds a byte the sanitizer must see: a control other than TAB/LF/CR, or DEL. One test covers the
// common word; only a word with a control or DEL (mostly an LF) is looked at more closely.
function wordNeedsSanitizer(word: number): boolean {
  const suspects = (~(word + PLUS_0x60) | (word + PLUS_0x01)) & HIGH_BITS;
  if (suspects === 0) return false;
  const allowed = equalBytes(word, ALL_LF) | equalBytes(word, ALL_TAB) | equalBytes(word, ALL_CR);
  return (suspects & ~allowed) !== 0;
}

function bytesArePlain(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isPlainByte(bytes[i] ?? 0)) return false;
  return true;
}

/**
 * True when every byte is printable ASCII, TAB, LF or CR. Such bytes decode one character each and pass the
 * sanitizer unchanged, so the chunk needs only a latin1 decode. A long chunk is scanned in SIMD where the runtime
 * has it; otherwise the scan reads four bytes at a time once `isAscii` (native) has ruled out bytes >= 0x80. The
 * byte-wise `isPlainByte` is the definition both must match.
 */
export function isPlainAscii(bytes: Uint8Array): boolean {
  if (bytes.length >= SIMD_MIN_BYTES) {
    if (simdScan === undefined) simdScan = createSimdScan() ?? null;
    if (simdScan !== null) return simdScan(bytes);
  }
  return isPlainAsciiByWords(bytes);
}

/** The scan without SIMD, four bytes at a time; exported for its tests. */
export function isPlainAsciiByWords(bytes: Uint8Array): boolean {
  if (!isAscii(bytes)) return false;
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  const words = (bytes.length - head) >>> 2;
  const tail = head + words * 4;
  if (!bytesArePlain(bytes, 0, head) || !bytesArePlain(bytes, tail, bytes.length)) return false;
  if (words === 0) return true; // a view needs an aligned offset even when empty
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  for (let i = 0; i < words; i++) if (wordNeedsSanitizer(view[i] ?? 0)) return false;
  return true;
}
