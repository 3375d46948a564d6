// Storage that the output buffer copies plain ASCII bytes into: fixed-size slabs, reused once nothing they hold is
// retained. A flood keeps only the newest bytes up to the caps, so without reuse every read would leave its copy
// to the garbage collector, and at hundreds of MB/s tens of MB of such garbage wait at any time.

/** Size of one slab; pieces are at most OUTPUT_PIECE_CHARS bytes, so several fit. */
export const SLAB_BYTES = 64 * 1024;
/** Empty slabs kept for reuse across all stores; more go to the garbage collector. */
const SPARE_SLABS_KEPT = 8;

const spares: ArrayBuffer[] = [];

interface Slab {
  readonly bytes: Uint8Array;
  /** Views handed out and not yet released. */
  holders: number;
}

/**
 * Copies of byte chunks in shared slabs. Every view that store() returns or hold() counted must be released once,
 * when the output buffer lets go of it; a slab is reused only when all of its views were released.
 */
export class ByteSlabs {
  readonly #slabs = new Map<ArrayBufferLike, Slab>();
  #current: Slab | undefined;
  #used = 0;

  /** A copy of `bytes` (at most SLAB_BYTES long) with one holder. */
  store(bytes: Uint8Array): Uint8Array {
    if (bytes.length > SLAB_BYTES) throw new RangeError(`a slab holds at most ${SLAB_BYTES} bytes (got ${bytes.length})`);
    let slab = this.#current;
    if (slab === undefined || this.#used + bytes.length > SLAB_BYTES) slab = this.#startSlab();
    const view = slab.bytes.subarray(this.#used, this.#used + bytes.length);
    view.set(bytes);
    this.#used += bytes.length;
    slab.holders++;
    return view;
  }

  /** One more holder of a view that store() returned, or of a part of it. */
  hold(view: Uint8Array): void {
    this.#slabOf(view).holders++;
  }

  release(view: Uint8Array): void {
    const slab = this.#slabOf(view);
    slab.holders--;
    if (slab.holders > 0) return;
    if (slab === this.#current) this.#current = undefined;
    this.#recycle(slab);
  }

  /** Slabs this store holds, the one being filled included. */
  get slabCount(): number {
    return this.#slabs.size;
  }

  #startSlab(): Slab {
    const previous = this.#current;
    const slab: Slab = { bytes: new Uint8Array(spares.pop() ?? new ArrayBuffer(SLAB_BYTES)), holders: 0 };
    this.#slabs.set(slab.bytes.buffer, slab);
    this.#current = slab;
    this.#used = 0;
    if (previous !== undefined && previous.holders === 0) this.#recycle(previous);
    return slab;
  }

  #recycle(slab: Slab): void {
    this.#slabs.delete(slab.bytes.buffer);
    if (spares.length < SPARE_SLABS_KEPT) spares.push(slab.bytes.buffer as ArrayBuffer);
  }

  #slabOf(view: Uint8Array): Slab {
    const slab = this.#slabs.get(view.buffer);
    if (slab === undefined || slab.holders <= 0) throw new Error("the view is not held in these slabs");
    return slab;
  }
}
