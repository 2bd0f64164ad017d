/** Base64 of `bytes` bytes that do not repeat in any short period (an image-sized payload for big bodies). */
export function noiseBase64(bytes: number): string {
  return noiseBytes(bytes).toBase64();
}

/** `bytes` bytes of noise (a hash of each index), the same every time. */
export function noiseBytes(bytes: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  return data;
}
