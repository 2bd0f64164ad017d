/**
 * Vectors as OpenAI's `encoding_format: "base64"` carries them: the bytes of little-endian float32 values,
 * base64-encoded. Written with a DataView so the byte order never depends on the machine's.
 */

/** A vector as base64 of little-endian float32 (values are rounded to float32, as the wire holds them). */
export function vectorToBase64(vector: readonly number[]): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i], true);
  return bytes.toBase64();
}

/**
 * A base64 string of little-endian float32 values as numbers; undefined when it is not valid base64 or its
 * byte count is not a multiple of four.
 */
export function vectorFromBase64(text: string): number[] | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(text);
  } catch {
    return undefined;
  }
  if (bytes.length % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
