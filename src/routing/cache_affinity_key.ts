import type { NeutralRequest } from "../model/mod.ts";

/** Only this much of a conversation's opening is hashed; enough to tell conversations apart. */
const MAX_PREFIX_CHARS = 4096;
const SESSION_IN_USER_ID = /session_([A-Za-z0-9-]{8,})/;

/**
 * The identity of the prompt cache a request would hit, or null when it names none. In order: an
 * explicit `prompt_cache_key` (Responses), the session of Claude Code's `metadata.user_id` (either the
 * `user_…_account_…_session_<uuid>` string or its JSON form with `session_id`), else a hash of the
 * cacheable prefix (system, tools and first message) when the request marks cache breakpoints or
 * continues a conversation. A lone first turn gets no key, so unrelated chats do not pile onto one
 * account. `head` gives a text's first characters: a long string held in pieces (src/long_strings.ts) is
 * read from its first piece, since reading a character of the whole string would first make it whole.
 */
export function cacheAffinityKey(
  request: NeutralRequest,
  head: (text: string, chars: number) => string = (text, chars) => text.slice(0, chars),
): string | null {
  const fields = request.extra?.fields;
  const explicit = fields?.prompt_cache_key;
  if (typeof explicit === "string" && explicit !== "") return `key:${explicit}`;
  const metadata = fields?.metadata;
  if (metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)) {
    const session = sessionOf((metadata as Record<string, unknown>).user_id);
    if (session !== null) return `session:${session}`;
  }
  if (!hasCacheMarker(request) && request.messages.length < 3) return null;
  return `prefix:${prefixHash(request, head)}`;
}

function sessionOf(userId: unknown): string | null {
  if (typeof userId !== "string" || userId === "") return null;
  if (userId.startsWith("{")) {
    try {
      const parsed = JSON.parse(userId);
      return typeof parsed?.session_id === "string" && parsed.session_id !== "" ? parsed.session_id : null;
    } catch {
      return null;
    }
  }
  return SESSION_IN_USER_ID.exec(userId)?.[1] ?? null;
}

function hasCacheMarker(request: NeutralRequest): boolean {
  if (request.system.some((p) => p.cacheControl !== undefined)) return true;
  if (request.tools.some((t) => t.cacheControl !== undefined)) return true;
  return request.messages.some((m) =>
    m.parts.some((p) => "cacheControl" in p && p.cacheControl !== undefined)
  );
}

/** A 64-bit FNV-1a style hash (two 32-bit lanes) of the conversation's opening, as hex. */
function prefixHash(request: NeutralRequest, head: (text: string, chars: number) => string): string {
  let budget = MAX_PREFIX_CHARS;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  const feed = (whole: string) => {
    const text = whole.length > budget ? head(whole, budget) : whole;
    const n = Math.min(text.length, budget);
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619);
      b = Math.imul(b ^ c, 2246822519);
    }
    budget -= n;
    // A separator keeps "ab"+"c" apart from "a"+"bc".
    a = Math.imul(a ^ 0x1f, 16777619);
  };
  feed(request.model);
  for (const part of request.system) feed(part.text);
  for (const tool of request.tools) feed(tool.name);
  const first = request.messages[0];
  for (const part of first?.parts ?? []) if (part.kind === "text") feed(part.text);
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
