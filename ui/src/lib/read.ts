/** Defensive readers for JSON from the API: a missing or odd field renders as empty, never throws. */

/** Loose JSON object. */
export type Json = Record<string, unknown>;

/** The value as an object, or {}. */
export function obj(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Json : {};
}

/** The value as an array of objects, or []. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(obj) : [];
}

/** The value as an array of strings (comma-separated strings are split). */
export function strings(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(String);
  if (typeof value === "string") return value.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
  return [];
}

/** The value as a string, or the fallback. */
export function str(value: unknown, fallback = ""): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return fallback;
}

/** The value as a finite number, or the fallback. */
export function num(value: unknown, fallback = 0): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return fallback;
}

/** The value as a number, or null when absent. */
export function optNum(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = num(value, NaN);
  return Number.isNaN(n) ? null : n;
}

/** The value as a boolean ("true", 1 and "on" count as true). */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === "true" || value === "on" || value === "1";
}

/** First defined field among several names (for fields the API may spell differently). */
export function pick(source: Json, ...names: string[]): unknown {
  for (const name of names) if (source[name] !== undefined && source[name] !== null) return source[name];
  return undefined;
}
