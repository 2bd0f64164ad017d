/** Base64 of `bytes` bytes that do not repeat in any short period (an image-sized payload for big bodies). */
export function noiseBase64(bytes: number): string {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  let binary = "";
  for (let i = 0; i < data.length; i += 65536) binary += String.fromCharCode(...data.subarray(i, i + 65536));
  return btoa(binary);
}
