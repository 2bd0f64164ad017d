/** The UTF-8 text byte arrays hold together (a character may be cut between two; bad bytes become U+FFFD). */
export function decodeUtf8Parts(parts: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = "";
  for (const part of parts) text += decoder.decode(part, { stream: true });
  return text + decoder.decode();
}

/** Joins byte arrays into one (`total` when the caller already counted it). */
export function concatBytes(parts: readonly Uint8Array[], total?: number): Uint8Array {
  const out = new Uint8Array(total ?? parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
