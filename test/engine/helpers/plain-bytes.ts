// Byte chunks for the plain-ASCII scans' tests: the byte-wise definition they must match, and chunks placed at every
// alignment inside a larger buffer.
import { isPlainByte } from "../../../src/engine/plain-ascii.js";

/** The definition the scans must match, one byte at a time. */
export const everyBytePlain = (bytes: Uint8Array): boolean => bytes.every(isPlainByte);

/** `bytes` at `offset` inside a larger buffer of ESC bytes, so the scan meets every alignment. */
export function placed(bytes: readonly number[], offset: number): Uint8Array {
  const backing = new Uint8Array(offset + bytes.length + 3).fill(0x1b);
  backing.set(bytes, offset);
  return backing.subarray(offset, offset + bytes.length);
}
