/**
 * Extracts a client key from a request: `Authorization: Bearer`, `x-api-key` (Anthropic SDK, Claude
 * Code), `x-goog-api-key` (Google SDK, Gemini CLI) or the `?key=` query parameter, in that order.
 */
export function presentedKey(headers: Headers, url: string): string | null {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const fromHeader = headers.get("x-api-key")?.trim() || headers.get("x-goog-api-key")?.trim();
  if (fromHeader) return fromHeader;
  // Parsing the URL is skipped when there is no query at all (the common case).
  return url.includes("?") ? new URL(url).searchParams.get("key")?.trim() || null : null;
}
