/** FNV-1a 32-bit hash as 8 hex chars; stable across runs so rewritten ids stay paired. */
export function stableHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * Rewrites a tool call id so a target accepts it: characters outside [A-Za-z0-9_-] become "_", and an
 * id longer than `maxLength` is cut and suffixed with a hash of the original. The same input always
 * gives the same output, so a tool call and its result keep matching after rewriting.
 */
export function toolIdFor(id: string, maxLength = 64): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/g, "_");
  const valid = safe === "" ? `call_${stableHash(id)}` : safe;
  if (valid.length <= maxLength && valid === id) return id;
  if (valid.length <= maxLength) return valid;
  const suffix = `_${stableHash(id)}`;
  return valid.slice(0, maxLength - suffix.length) + suffix;
}

/** A deterministic id for a tool call that arrived without one (Gemini functionCall, Ollama). */
export function syntheticToolId(responseId: string, index: number, name: string): string {
  return `call_${stableHash(`${responseId}:${index}:${name}`)}${index}`;
}
