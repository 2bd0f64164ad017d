import { hasRateLimitMarker } from "./body_markers.ts";
import type { CooldownKind } from "./cooldown_policy.ts";
import { resetFromErrorBody } from "./limit_body.ts";
import { exhaustedUntil, type HeaderLookup, readLimitHeaders } from "./limit_headers.ts";

/** What went wrong with one upstream attempt, as the executor saw it. */
export type UpstreamFailure =
  | {
    readonly kind: "status";
    readonly status: number;
    readonly bodyText: string;
    readonly retryAfterHeader?: string | null;
    /** Needed to read a Retry-After given as an HTTP date and any window reset. */
    readonly now?: number;
    /** The answer's headers, to find the reset of a rejected or exhausted quota window. */
    readonly headers?: HeaderLookup;
  }
  | { readonly kind: "network"; readonly reason: "timeout" | "connection" };

/** The verdict on a failure: try the next account or not, and how to cool this one. */
export interface FailureClassification {
  readonly fallback: boolean;
  readonly cooldownKind: CooldownKind | null;
  /** The upstream's Retry-After in ms, when it sent a usable one. */
  readonly retryAfterMs: number | null;
  /**
   * Epoch ms at which the account's rejected or exhausted quota window refills (unified 5 h / 7 d reset,
   * Codex `resets_at`, Google RetryInfo, `x-ratelimit-reset-*` at zero remaining). The cooldown then
   * lasts until that instant instead of a fixed duration. Absent when the answer names no reset.
   */
  readonly resetAtMs?: number;
}

/** A Retry-After below this is raised to it, so a `0` cannot make the gateway hammer the upstream. */
export const MIN_RETRY_AFTER_MS = 1_000;

/** Classifies a failed upstream attempt by the spec's table; body-text rate limits win over the status. */
export function classifyUpstreamFailure(failure: UpstreamFailure): FailureClassification {
  switch (failure.kind) {
    case "network":
      return { fallback: true, cooldownKind: "network", retryAfterMs: null };
    case "status": {
      const retryAfterMs = parseRetryAfter(failure.retryAfterHeader, failure.now);
      if (hasRateLimitMarker(failure.bodyText, failure.status)) {
        return withReset({ fallback: true, cooldownKind: "body_rate_limit", retryAfterMs }, failure);
      }
      const kind = statusKind(failure.status);
      const verdict: FailureClassification = {
        fallback: kind !== null,
        cooldownKind: kind,
        retryAfterMs: kind === null ? null : retryAfterMs,
      };
      return kind === "rate_limit" ? withReset(verdict, failure) : verdict;
    }
  }
}

/** Adds the quota window reset a rate-limited answer names (headers or body), the latest of them. */
function withReset(
  verdict: FailureClassification,
  failure: Extract<UpstreamFailure, { kind: "status" }>,
): FailureClassification {
  if (failure.now === undefined) return verdict;
  const fromHeaders = failure.headers
    ? exhaustedUntil(readLimitHeaders(failure.headers, failure.now), failure.now)
    : null;
  const fromBody = resetFromErrorBody(failure.bodyText, failure.now);
  const resetAtMs = fromHeaders === null
    ? fromBody
    : fromBody === null
    ? fromHeaders
    : Math.max(fromHeaders, fromBody);
  return resetAtMs === null ? verdict : { ...verdict, resetAtMs };
}

function statusKind(status: number): CooldownKind | null {
  if (status === 429) return "rate_limit";
  if (status >= 500) return "server";
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "payment";
  return null;
}

/** Reads a Retry-After header (delta seconds, or an HTTP date when `now` is known) as milliseconds. */
export function parseRetryAfter(header: string | null | undefined, now?: number): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (value === "") return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(Math.round(Number(value) * 1000), MIN_RETRY_AFTER_MS);
  if (now === undefined) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(at - now, MIN_RETRY_AFTER_MS);
}
