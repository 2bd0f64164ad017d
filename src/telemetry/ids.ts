/**
 * Trace and span ids as lowercase hex, drawn from a random source the caller passes in (tests pass a
 * seeded one; the composition root passes `crypto.getRandomValues`). W3C Trace Context forbids all-zero
 * ids, so an all-zero draw is drawn again rather than patched, which would bias the ratio sampler.
 */

/** Fills the array with random bytes (the shape of `crypto.getRandomValues`). */
export type RandomSource = (bytes: Uint8Array) => void;

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** The two char codes of each byte's hex, for building an id as one flat string. */
const HEX_CODES = Uint16Array.from({ length: 512 }, (_, i) => HEX[i >> 1].charCodeAt(i & 1));

/** Lowercase hex of the bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b];
  return out;
}

/** The bytes of an even-length hex string (the caller has validated it). */
export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Hands out trace and span ids from a pool of random bytes refilled in 4 KB draws: allocating a typed
 * array and calling the random source per id cost ~2.5 µs, most of an id's price on the request path.
 * An all-zero id is drawn again; a source that gives only zeros fails loudly instead of looping.
 */
export class IdGenerator {
  readonly #random: RandomSource;
  readonly #pool: Uint8Array;
  #at: number;
  /** Char codes of the id being built: one `String.fromCharCode` call makes a flat string, where
   * appending 16 pieces made a rope that every later reader (the encoder, headers) had to flatten. */
  readonly #codes: Record<8 | 16, number[]> = { 8: new Array(16).fill(0), 16: new Array(32).fill(0) };

  /** `poolBytes` is how many random bytes one draw takes (at least one trace id's 16). */
  constructor(random: RandomSource, poolBytes = 4096) {
    this.#random = random;
    this.#pool = new Uint8Array(Math.max(16, poolBytes));
    this.#at = this.#pool.length;
  }

  #hex(size: 8 | 16): string {
    const codes = this.#codes[size];
    for (let tries = 0; tries < 16; tries++) {
      if (this.#at + size > this.#pool.length) {
        this.#random(this.#pool);
        this.#at = 0;
      }
      const start = this.#at;
      this.#at += size;
      let zero = true;
      for (let i = 0; i < size; i++) {
        const b = this.#pool[start + i];
        if (b !== 0) zero = false;
        codes[2 * i] = HEX_CODES[2 * b];
        codes[2 * i + 1] = HEX_CODES[2 * b + 1];
      }
      if (!zero) return String.fromCharCode.apply(null, codes);
    }
    throw new Error("the random source returned only zero bytes");
  }

  /** A new 16-byte trace id (32 hex digits, never all zero). */
  traceId(): string {
    return this.#hex(16);
  }

  /** A new 8-byte span id (16 hex digits, never all zero). */
  spanId(): string {
    return this.#hex(8);
  }
}

/** A new 16-byte trace id from a one-off draw (tests and rare callers; hot paths use IdGenerator). */
export function newTraceId(random: RandomSource): string {
  return new IdGenerator(random, 16).traceId();
}

/** A new 8-byte span id from a one-off draw (tests and rare callers; hot paths use IdGenerator). */
export function newSpanId(random: RandomSource): string {
  return new IdGenerator(random, 8).spanId();
}
