/**
 * Phrases that mark a rate limit hidden in an error body, in normalised form (lower case, `_` and `-`
 * read as spaces), so `RESOURCE_EXHAUSTED`, `rate_limit_exceeded` and `Rate-Limited` all match.
 */
export const RATE_LIMIT_MARKERS: readonly string[] = [
  "rate limit",
  "ratelimit",
  "too many requests",
  "quota exceeded",
  "capacity",
  "overloaded",
  "resource exhausted",
];

/** Only this much of an error text is scanned; markers sit near the start of real error bodies. */
export const MAX_SCANNED_CHARS = 4096;
/** Bodies longer than this are scanned as raw text instead of being parsed. */
const MAX_PARSED_CHARS = 65_536;

/** Whether an upstream body carries a rate-limit marker, whatever its JSON shape. */
export function hasRateLimitMarker(bodyText: string, status: number): boolean {
  const text = errorText(bodyText, status);
  if (text === "") return false;
  const normalised = text.slice(0, MAX_SCANNED_CHARS).toLowerCase().replace(/[_\-\s]+/g, " ");
  return RATE_LIMIT_MARKERS.some((marker) => normalised.includes(marker));
}

/**
 * The part of a body worth scanning. For error statuses that is the `error` member when there is one,
 * else the whole body. A success status only counts when the body is error-shaped, so a successful
 * answer that merely talks about "capacity" is never mistaken for a rate limit.
 */
function errorText(bodyText: string, status: number): string {
  const isErrorStatus = status >= 400;
  const trimmed = bodyText.trim();
  if (trimmed === "") return "";
  if (trimmed.length > MAX_PARSED_CHARS) return isErrorStatus ? trimmed : "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    // Not JSON: plain text on an error status, or an SSE body whose events carry an error object.
    return isErrorStatus || trimmed.includes('"error"') ? trimmed : "";
  }
  const found = errorMembers(parsed);
  if (found.length > 0) return found.join("\n");
  if (typeof parsed === "string") return parsed;
  return isErrorStatus ? trimmed : "";
}

/** Error bodies nest arrays a level or two deep; an upstream's `[[[…]]]` must not overflow the stack. */
const MAX_ARRAY_DEPTH = 8;

function errorMembers(value: unknown, depth = 0): string[] {
  if (Array.isArray(value)) {
    return depth >= MAX_ARRAY_DEPTH ? [] : value.flatMap((item) => errorMembers(item, depth + 1));
  }
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  if (record.error !== undefined && record.error !== null && record.error !== false) {
    return [typeof record.error === "string" ? record.error : stringified(record.error)];
  }
  if (record.type === "error") return [stringified(record)];
  return [];
}

/** JSON text of a parsed upstream value; one nested too deep to serialise is named, not thrown. */
function stringified(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "(an error object nested too deeply to show)";
  }
}
