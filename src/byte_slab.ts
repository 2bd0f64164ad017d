/**
 * Small, short-lived byte arrays carved out of shared buffers. A `new Uint8Array(n)` with a buffer of its
 * own costs about 0.75 µs here (its backing store is allocated outside the JavaScript heap and tracked
 * by the collector), and `TextEncoder.encode` as much again; a view into a buffer that already exists costs
 * 0.05-0.1 µs. The hot paths make one such array per stream chunk (the frames a client gets) and per
 * upstream request (its head and message), so they take them from a slab instead.
 *
 * A view keeps its whole slab alive, and a slab's bytes are never handed out twice: only bytes that are
 * let go soon belong here (a frame on its way to a client, a request on its way to an upstream). A slow
 * reader that holds a frame holds at most one slab (SLAB_BYTES). Larger arrays get buffers of their own.
 */

/** Bytes of one slab. */
export const SLAB_BYTES = 4096;
/** Largest array a slab hands out; larger ones get a buffer of their own. */
export const LARGEST_SLAB_TAKE = 1024;

const encoder = new TextEncoder();

/** Hands out byte arrays from shared buffers (see the module doc). */
export class ByteSlab {
  #buffer = new ArrayBuffer(SLAB_BYTES);
  #at = 0;

  /** A zero-filled array of `size` bytes. */
  take(size: number): Uint8Array<ArrayBuffer> {
    if (size > LARGEST_SLAB_TAKE) return new Uint8Array(size);
    this.#makeRoom(size);
    const bytes = new Uint8Array(this.#buffer, this.#at, size);
    this.#at += size;
    return bytes;
  }

  /** A copy of `bytes`. */
  copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
    const out = this.take(bytes.length);
    out.set(bytes);
    return out;
  }

  /** The UTF-8 of `text`. */
  encode(text: string): Uint8Array<ArrayBuffer> {
    // A UTF-16 code unit takes at most three bytes; the part not written goes back to the slab.
    const most = text.length * 3;
    if (most > LARGEST_SLAB_TAKE) return encoder.encode(text);
    this.#makeRoom(most);
    const { written } = encoder.encodeInto(text, new Uint8Array(this.#buffer, this.#at, most));
    const bytes = new Uint8Array(this.#buffer, this.#at, written);
    this.#at += written;
    return bytes;
  }

  /** Starts a new slab when `size` more bytes do not fit in this one (its views keep it alive). */
  #makeRoom(size: number): void {
    if (this.#at + size <= SLAB_BYTES) return;
    this.#buffer = new ArrayBuffer(SLAB_BYTES);
    this.#at = 0;
  }
}

/** The process's slab: JavaScript runs on one thread, so one serves every caller. */
export const byteSlab = new ByteSlab();
