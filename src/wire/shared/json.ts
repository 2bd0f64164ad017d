/** Narrow helpers for reading untrusted JSON without `any`. */

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses JSON text, returning undefined instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Parses a tool-arguments JSON string into an object; malformed or non-object text gives {}. */
export function argumentsObject(json: string): Record<string, unknown> {
  const parsed = tryParseJson(json === "" ? "{}" : json);
  return isRecord(parsed) ? parsed : {};
}
