/** Narrow helpers for reading untrusted JSON without `any`. */
import { MAX_JSON_DEPTH, measureJson } from "./limits.ts";

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses JSON text, returning undefined instead of throwing. Text nested deeper than MAX_JSON_DEPTH
 * counts as not JSON too: tool arguments and results arrive as strings the body's depth check never
 * saw, and a value that deep would overflow the stack when an upstream body is serialised around it.
 */
export function tryParseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Each level of nesting takes an opening and a closing bracket: a text this short cannot nest too deep,
  // and most stream chunks are this short (measuring each one cost a third of its parse).
  if (text.length < 2 * (MAX_JSON_DEPTH + 1)) return value;
  return measureJson(value, MAX_JSON_DEPTH).tooDeep ? undefined : value;
}

/** True when tool-call arguments are neither empty nor a JSON object (an encoder that needs one sends {}). */
export function argumentsLost(json: string): boolean {
  return json.trim() !== "" && !isRecord(tryParseJson(json));
}

/** Parses a tool-arguments JSON string into an object; malformed or non-object text gives {}. */
export function argumentsObject(json: string): Record<string, unknown> {
  const parsed = tryParseJson(json === "" ? "{}" : json);
  return isRecord(parsed) ? parsed : {};
}
