/** UTF-8 text as base64, for opaque tokens the gateway writes (reasoning envelopes, compactions). */
export function textToBase64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The UTF-8 text in `data`, or undefined when it is not base64 of valid UTF-8 (a token someone else wrote). */
export function base64ToText(data: string): string | undefined {
  try {
    const binary = atob(data);
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
