// src/engine/output-slabs.ts: copies of plain output bytes in shared slabs, reused once nothing in them is held.
import { describe, expect, it } from "vitest";
import { ByteSlabs, SLAB_BYTES } from "../../src/engine/output-slabs.js";

const bytes = (text: string): Uint8Array => Buffer.from(text, "latin1");
const text = (view: Uint8Array): string => Buffer.from(view).toString("latin1");

describe("ByteSlabs", () => {
  it("keeps a copy: changing the stored bytes afterwards does not change the view", () => {
    const slabs = new ByteSlabs();
    const source = bytes("hello");
    const view = slabs.store(source);
    source.fill(0x7a);
    expect(text(view)).toBe("hello");
  });

  it("fills one slab, then starts another, and frees a full slab once all of its views are released", () => {
    const slabs = new ByteSlabs();
    const half = new Uint8Array(SLAB_BYTES / 2).fill(0x61);
    const first = slabs.store(half);
    const second = slabs.store(half);
    expect(slabs.slabCount).toBe(1);
    const third = slabs.store(half);
    expect(slabs.slabCount).toBe(2);
    slabs.release(first);
    expect(slabs.slabCount).toBe(2);
    slabs.release(second);
    expect(slabs.slabCount).toBe(1);
    expect(text(third)).toBe("a".repeat(SLAB_BYTES / 2));
  });

  it("keeps a slab while a second holder of one of its views remains", () => {
    const slabs = new ByteSlabs();
    const view = slabs.store(new Uint8Array(SLAB_BYTES).fill(0x62));
    slabs.hold(view.subarray(10));
    slabs.release(view);
    slabs.store(new Uint8Array(SLAB_BYTES).fill(0x63)); // a new slab: the held one is not reused
    expect(text(view.subarray(10))).toBe("b".repeat(SLAB_BYTES - 10));
    expect(slabs.slabCount).toBe(2);
  });

  it("reuses an emptied slab, from its start, for the next bytes", () => {
    const slabs = new ByteSlabs();
    const first = slabs.store(bytes("first"));
    slabs.release(first);
    const second = slabs.store(bytes("again"));
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(0);
  });

  it("rejects a release without a holder and bytes larger than a slab", () => {
    const slabs = new ByteSlabs();
    const view = slabs.store(bytes("x"));
    slabs.release(view);
    expect(() => slabs.release(view)).toThrow("not held");
    expect(() => slabs.hold(new Uint8Array(4))).toThrow("not held");
    expect(() => slabs.store(new Uint8Array(SLAB_BYTES + 1))).toThrow(RangeError);
  });
});
