/**
 * When an OTLP export may be retried and after how long, per the OTLP/HTTP specification: 429, 502,
 * 503 and 504 are retryable (every other 4xx/5xx is not), as is a connection that ended without an
 * answer; `Retry-After` (seconds or an HTTP date) is honoured up to a cap, otherwise the wait doubles
 * from a base. Pure.
 */

/** Statuses the OTLP/HTTP specification says SHOULD be retried. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Retry bounds. */
export interface RetryPolicy {
  /** Retries after the first try (0: never retry). */
  readonly maxRetries: number;
  /** The first backoff, doubled per retry. */
  readonly baseDelayMs: number;
  /** No wait exceeds this, whatever `Retry-After` asks. */
  readonly maxDelayMs: number;
}

/** The delay `Retry-After` asks for in milliseconds, or null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowEpochMs: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowEpochMs);
}

/**
 * How long to wait before retry number `retry` (1 for the first retry), or null when no retry is left.
 * `asked` is the server's Retry-After in ms (null when it sent none).
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, asked: number | null): number | null {
  if (retry > policy.maxRetries) return null;
  const backoff = policy.baseDelayMs * 2 ** (retry - 1);
  return Math.min(asked ?? backoff, policy.maxDelayMs);
}
