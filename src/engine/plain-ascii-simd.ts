// The plain-ASCII test of long chunks in WebAssembly SIMD: 16 bytes per compare instead of the JavaScript scan's 4.
// In a 50 MB flood the JavaScript scan was the engine's largest CPU cost (bench/README.md, issue 36): about 1–2 GB/s
// against 4–6 GB/s here, copy into the module's memory included. The module is a few hand-assembled instructions,
// built at the first long chunk; where WebAssembly or its SIMD is missing, `createSimdScan` returns undefined.

/** Bytes the module scans per call; longer chunks are scanned window by window. */
export const SIMD_WINDOW_BYTES = 64 * 1024;
/** Bytes per loop round: four 16-byte vectors, so the padding after a chunk is at most 63 bytes. */
const ROUND_BYTES = 64;
/** Two 64 KiB pages: one window and its padding. */
const MEMORY_PAGES = 2;
const SPACE = 0x20;
const DEL = 0x7f;

// Opcodes (WebAssembly core 2.0, with the fixed-width SIMD proposal).
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_CONST = [SIMD, 0x0c];
const I8X16_SWIZZLE = [SIMD, 0x0e];
const I8X16_EQ = [SIMD, 0x23];
const I8X16_LT_S = [SIMD, 0x25];
const V128_ANDNOT = [SIMD, 0x4f];
const V128_OR = [SIMD, 0x50];
const V128_ANY_TRUE = [SIMD, 0x53];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_EQZ = 0x45;
const BLOCK = 0x02;
const LOOP = 0x03;
const VOID = 0x40;
const BR = 0x0c;
const BR_IF = 0x0d;
const END = 0x0b;
const I32 = 0x7f;
const V128 = 0x7b;

// Locals of `scan(length)`: the length (parameter), the read position, the accumulated bad bytes, the current vector.
const LENGTH = 0;
const POSITION = 1;
const BAD = 2;
const VECTOR = 3;

const uleb = (value: number): number[] => {
  const out: number[] = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    out.push(value === 0 ? low : low | 0x80);
  } while (value !== 0);
  return out;
};
// i32.const takes a signed LEB128: a last byte with bit 6 set would make the number negative.
const sleb = (value: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const low = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (low & 0x40) === 0) || (value === -1 && (low & 0x40) !== 0)) return [...out, low];
    out.push(low | 0x80);
  }
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (text: string): number[] => [text.length, ...Buffer.from(text, "latin1")];
const splat = (byte: number): number[] => new Array<number>(16).fill(byte);
// For swizzle: 0xff at TAB, LF and CR, the controls that are plain; an index of 16 or more gives 0.
const PLAIN_CONTROLS = Array.from({ length: 16 }, (_, code) => (code === 0x09 || code === 0x0a || code === 0x0d ? 0xff : 0));

// One vector at `offset` from the position: bad |= (v <s 0x20 and not TAB/LF/CR) | (v == DEL). Bytes >= 0x80 are
// negative as signed bytes, so the first compare catches them with the controls.
const checkVector = (offset: number): number[] => [
  LOCAL_GET, POSITION, ...V128_LOAD, 0x00, offset, LOCAL_SET, VECTOR,
  LOCAL_GET, VECTOR, ...V128_CONST, ...splat(SPACE), ...I8X16_LT_S,
  ...V128_CONST, ...PLAIN_CONTROLS, LOCAL_GET, VECTOR, ...I8X16_SWIZZLE,
  ...V128_ANDNOT,
  LOCAL_GET, VECTOR, ...V128_CONST, ...splat(DEL), ...I8X16_EQ, ...V128_OR,
  LOCAL_GET, BAD, ...V128_OR, LOCAL_SET, BAD,
];

// scan(length): 1 when the first `length` bytes of memory (a multiple of ROUND_BYTES) are all plain, else 0.
const SCAN_BODY = [
  2, 1, I32, 2, V128, // locals: the position; the bad bytes and the vector
  BLOCK, VOID, LOOP, VOID,
  LOCAL_GET, POSITION, LOCAL_GET, LENGTH, I32_GE_U, BR_IF, 1,
  ...[0, 16, 32, 48].flatMap(checkVector),
  LOCAL_GET, POSITION, I32_CONST, ...sleb(ROUND_BYTES), I32_ADD, LOCAL_SET, POSITION,
  BR, 0, END, END,
  LOCAL_GET, BAD, ...V128_ANY_TRUE, I32_EQZ, END,
];

const MODULE_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 1, I32, 1, I32]), // type 0: (i32) -> i32
  ...section(3, [1, 0]), // function 0 has type 0
  ...section(5, [1, 0x00, MEMORY_PAGES]), // one memory, no maximum
  ...section(7, [2, ...name("memory"), 0x02, 0, ...name("scan"), 0x00, 0]),
  ...section(10, [1, ...uleb(SCAN_BODY.length), ...SCAN_BODY]),
]);

// The part of the WebAssembly API used here: the compiler's lib (ES2023, no DOM) does not declare it.
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}

/** True when every byte of the chunk is TAB, LF, CR or U+0020–U+007E (isPlainByte), scanned in SIMD. */
export type SimdScan = (bytes: Uint8Array) => boolean;

/** Builds the scan, or returns undefined where this runtime has no WebAssembly SIMD. */
export function createSimdScan(): SimdScan | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  let exports: Record<string, unknown>;
  try {
    if (wasm === undefined) return undefined;
    exports = new wasm.Instance(new wasm.Module(MODULE_BYTES)).exports;
  } catch {
    return undefined; // no SIMD: the module does not validate
  }
  const memory = new Uint8Array((exports["memory"] as { buffer: ArrayBuffer }).buffer);
  const scan = exports["scan"] as (length: number) => number;
  return (bytes) => {
    for (let start = 0; start < bytes.length; start += SIMD_WINDOW_BYTES) {
      const window = bytes.subarray(start, start + SIMD_WINDOW_BYTES);
      const rounded = Math.ceil(window.length / ROUND_BYTES) * ROUND_BYTES;
      memory.set(window);
      memory.fill(SPACE, window.length, rounded);
      if (scan(rounded) !== 1) return false;
    }
    return true;
  };
}
