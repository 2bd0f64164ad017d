const PREFIX = "chatcmpl-";

/** Ids some upstreams send that identify nothing (placeholders, bare prefixes). */
const GENERIC_IDS = new Set(["chatcmpl", "chatcmpl-", "chat", "completion", "id", "0", "null", "undefined"]);

/** True when an upstream chunk id is missing, too short (< 8 chars) or a generic placeholder. */
export function isUnusableId(id: unknown): boolean {
  // The longest generic id has 10 characters; longer ids skip the lower-casing.
  return typeof id !== "string" || id.length < 8 || (id.length <= 10 && GENERIC_IDS.has(id.toLowerCase()));
}

/** A `chatcmpl-` id for a response: kept when it already has the prefix, prefixed otherwise. */
export function chatCompletionId(id: string, fallback: string): string {
  if (id.startsWith(PREFIX) && id.length > PREFIX.length) return id;
  return PREFIX + (id === "" ? fallback : id);
}
