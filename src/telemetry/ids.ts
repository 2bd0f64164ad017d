/**
 * Trace and span ids as lowercase hex, drawn from a random source the caller passes in (tests pass a
 * seeded one; the composition root passes `crypto.getRandomValues`). W3C Trace Context forbids all-zero
 * ids, so an all-zero draw is drawn again rather than patched, which would bias the ratio sampler.
 */

/** Fills the array with random bytes (the shape of `crypto.getRandomValues`). */
export type RandomSource = (bytes: Uint8Array) => void;

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

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

function randomHex(random: RandomSource, size: number): string {
  const bytes = new Uint8Array(size);
  // Bounded so a broken source (always zero) fails loudly instead of spinning forever.
  for (let tries = 0; tries < 16; tries++) {
    random(bytes);
    if (bytes.some((b) => b !== 0)) return bytesToHex(bytes);
  }
  throw new Error("the random source returned only zero bytes");
}

/** A new 16-byte trace id (32 hex digits, never all zero). */
export function newTraceId(random: RandomSource): string {
  return randomHex(random, 16);
}

/** A new 8-byte span id (16 hex digits, never all zero). */
export function newSpanId(random: RandomSource): string {
  return randomHex(random, 8);
}
