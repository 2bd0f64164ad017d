/**
 * Rows as one JSON text for PostgreSQL's `json_to_recordset`, which inserts a whole chunk of rows from one
 * parameter: the driver encodes every parameter in JavaScript on the bridge thread (several µs for a row of
 * 15–20 of them), while this is one native JSON.stringify on the main thread.
 */
import { pgText } from "./postgres/pg_text.ts";

/**
 * The JSON text of `rows`, stored exactly as text parameters would store the same values. Plain
 * JSON.stringify would change these, so rows with them take the slow way: a non-finite number (JSON says
 * null; as text, "NaN" or "Infinity" is what a parameter sends: `finite` false says there may be one) and a
 * lone surrogate (an error text cut inside an emoji: JSON escapes it and PostgreSQL refuses the escape; as a
 * parameter it arrives as U+FFFD). A NUL becomes U+FFFD too, as in every parameter (`pgText`).
 */
export function recordsetJson(rows: readonly object[], finite: boolean): string {
  if (finite) {
    const json = JSON.stringify(rows);
    // `\ud` or `\u0000` also match an escaped backslash before "ud" or "u0000"; that only takes the slow
    // path needlessly.
    if (!json.includes("\\ud") && !json.includes("\\u0000")) return json;
  }
  return JSON.stringify(rows, asParameter);
}

/**
 * The rows to upsert in one statement: one per key, the last one's values at the first one's place, which is
 * what running the upserts one by one leaves (PostgreSQL refuses one statement touching a row twice).
 */
export function lastPerKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const last = new Map<string, T>();
  for (const row of rows) last.set(key(row), row);
  return [...last.values()];
}

/** Rows per statement for small rows on PostgreSQL: each statement costs the bridge ~50 µs of its own. */
export const RECORDSET_CHUNK = 512;

/** `rows` in chunks of at most `size` (the array itself when it fits: no copy for the usual batch). */
export function* chunksOf<T>(rows: readonly T[], size = RECORDSET_CHUNK): Generator<readonly T[]> {
  if (rows.length <= size) {
    if (rows.length > 0) yield rows;
    return;
  }
  for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
}

function asParameter(_key: string, value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "string") return pgText(value.toWellFormed());
  return value;
}
