/** Request-log bodies are cut at this many UTF-8 bytes. */
export const LOG_BODY_LIMIT = 64 * 1024;

/** Cuts text to at most `limit` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, limit = LOG_BODY_LIMIT): { text: string; truncated: boolean } {
  // Every UTF-16 unit encodes to at most 3 bytes, so short strings skip the encoding work.
  if (text.length * 3 <= limit) return { text, truncated: false };
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return { text, truncated: false };
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}
