/**
 * The rate-limit headers clients already read, from a limiter's numbers. Pure.
 *
 * - Chat Completions and Responses (OpenAI's names): `x-ratelimit-limit-requests`,
 *   `x-ratelimit-remaining-requests`, `x-ratelimit-reset-requests` and the `-tokens` trio; the reset is the
 *   time until the bucket is full again as a Go-style duration (`1s`, `6m0s`, `12ms`, `1h2m3.5s`).
 * - Messages (Anthropic's names): `anthropic-ratelimit-requests-limit`, `-remaining`, `-reset` and the
 *   `anthropic-ratelimit-tokens-*` trio; the reset is the instant the bucket is full again, in RFC 3339
 *   (whole seconds, UTC: `2026-11-28T05:31:07Z`).
 * - On a refusal, `retry-after` (whole seconds, at least 1) and `retry-after-ms`: the official OpenAI and
 *   Anthropic SDKs prefer the latter, so their automatic retry waits just long enough.
 */
import type { LimitState } from "./rate_limiter.ts";

/** The numbers of one answer: each limit's state (null: no such limit), and the wait when refused. */
export interface RateLimitSnapshot {
  readonly requests: LimitState | null;
  readonly tokens: LimitState | null;
  /** Set on a refusal only. */
  readonly retryAfterMs?: number;
}

/** Which family of header names a client surface reads. */
export type RateLimitHeaderStyle = "openai" | "anthropic";

/** The headers for one answer in the style of the client's surface (empty when no limit applies). */
export function rateLimitHeaders(
  style: RateLimitHeaderStyle,
  snapshot: RateLimitSnapshot,
  now: number,
): Record<string, string> {
  const headers = style === "openai"
    ? openAiRateLimitHeaders(snapshot)
    : anthropicRateLimitHeaders(snapshot, now);
  if (snapshot.retryAfterMs !== undefined && snapshot.retryAfterMs > 0) {
    headers["retry-after"] = String(Math.max(Math.ceil(snapshot.retryAfterMs / 1000), 1));
    headers["retry-after-ms"] = String(Math.ceil(snapshot.retryAfterMs));
  }
  return headers;
}

/** `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`. */
export function openAiRateLimitHeaders(snapshot: RateLimitSnapshot): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, state] of [["requests", snapshot.requests], ["tokens", snapshot.tokens]] as const) {
    if (state === null) continue;
    headers[`x-ratelimit-limit-${name}`] = String(state.limit);
    headers[`x-ratelimit-remaining-${name}`] = String(state.remaining);
    headers[`x-ratelimit-reset-${name}`] = goDuration(state.resetMs);
  }
  return headers;
}

/** `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}`. */
export function anthropicRateLimitHeaders(snapshot: RateLimitSnapshot, now: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, state] of [["requests", snapshot.requests], ["tokens", snapshot.tokens]] as const) {
    if (state === null) continue;
    headers[`anthropic-ratelimit-${name}-limit`] = String(state.limit);
    headers[`anthropic-ratelimit-${name}-remaining`] = String(state.remaining);
    headers[`anthropic-ratelimit-${name}-reset`] = rfc3339Seconds(now + state.resetMs);
  }
  return headers;
}

/**
 * A duration as Go's time.Duration prints it, which OpenAI's reset headers use: `0s`; under a second in
 * whole milliseconds (`250ms`); else hours, minutes and seconds with the larger units only when non-zero
 * ahead of them (`1s`, `1.5s`, `6m0s`, `1h0m0s`). Rounded up to the millisecond.
 */
export function goDuration(ms: number): string {
  const total = Math.max(Math.ceil(ms), 0);
  if (total === 0) return "0s";
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  const s = `${seconds}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

/** An instant in RFC 3339 at whole seconds, rounded up (a reset is never announced early). */
export function rfc3339Seconds(epochMs: number): string {
  return new Date(Math.ceil(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
