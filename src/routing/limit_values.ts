/**
 * Readers for the values rate-limit headers and bodies carry. Upstreams disagree on units, so each reader
 * accepts every form seen in the wild and answers null for anything it cannot read with confidence.
 */

/** Epoch values above this are milliseconds (2001-09-09 in ms; year 33658 in seconds). */
const EPOCH_MS_FLOOR = 1e12;
/** Numbers above this are epoch seconds, not a delay (2001-09-09; no window lasts 31 years). */
const EPOCH_S_FLOOR = 1e9;

/** A finite number from a header value, or null. */
export function readNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === "" || !/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A boolean header (`true|false|1|0`, any case), or null. */
export function readBool(value: string | null | undefined): boolean | null {
  const text = value?.trim().toLowerCase();
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  return null;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s|d)/g;

/**
 * A Go/OpenAI-style duration (`6m0s`, `1h2m3.5s`, `20ms`, `1.5s`, `2d`) or a protobuf Duration (`34s`,
 * `0.5s`) in milliseconds, or null when the text is not entirely such a duration.
 */
export function readDuration(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim().toLowerCase();
  if (text === "") return null;
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(DURATION_PART)) {
    if (match.index !== consumed) return null;
    consumed += match[0].length;
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  return consumed === text.length && consumed > 0 ? total : null;
}

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * The instant a reset value points at, in epoch ms. Accepted: a duration (`6m0s`), a bare number of
 * seconds to wait (`30`, `0.5`), epoch seconds (`1767225600`), epoch ms (`1767225600000`), an RFC 3339
 * timestamp or an HTTP date. Null for anything else; a reset already in the past is returned as is.
 */
export function readResetAt(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === "") return null;
  const n = readNumber(text);
  if (n !== null) {
    if (n < 0) return null;
    if (n >= EPOCH_MS_FLOOR) return Math.round(n);
    if (n >= EPOCH_S_FLOOR) return Math.round(n * 1000);
    return now + Math.round(n * 1000);
  }
  const duration = readDuration(text);
  if (duration !== null) return now + duration;
  // Dates must look like dates: Date.parse reads odd strings ("1", "a 2") as years or local times.
  if (!/^\d{4}-\d{2}-\d{2}T|^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} /.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

/** Epoch seconds (or ms, when the value is that large) as epoch ms; null for anything else. */
export function readEpoch(value: string | number | null | undefined): number | null {
  const n = typeof value === "number" ? (Number.isFinite(value) ? value : null) : readNumber(value);
  if (n === null || n <= 0) return null;
  return n >= EPOCH_MS_FLOOR ? Math.round(n) : Math.round(n * 1000);
}
