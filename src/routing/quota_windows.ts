/** Fixed quota windows an operator configures for an account (all UTC, like the origin). */
export type QuotaWindowKind = "5h" | "daily" | "weekly" | "monthly";
/** What a configured quota counts: attempts sent, or input + output tokens of successful answers. */
export type QuotaMetric = "requests" | "tokens";

/** One configured subscription quota: at most `limit` of `metric` per `window`. */
export interface QuotaRule {
  readonly window: QuotaWindowKind;
  readonly metric: QuotaMetric;
  readonly limit: number;
}

/** The limits an operator (or an inventory key's check) configured for one account. */
export interface AccountLimits {
  /** Requests per rolling minute; 0 or absent = none. */
  readonly rpm?: number;
  /** Requests per UTC day; 0 or absent = none. */
  readonly rpd?: number;
  readonly quotas?: readonly QuotaRule[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** 1970-01-01 was a Thursday: shifting by three days makes ISO weeks start on Monday. */
const MONDAY_SHIFT_MS = 3 * DAY_MS;

/** The `[start, end)` of the window of `kind` that contains `now`. */
export function windowBounds(kind: QuotaWindowKind, now: number): { start: number; end: number } {
  switch (kind) {
    case "5h": {
      // Fixed 5-hour buckets counted from the epoch, not rolling (origin §7.6).
      const start = Math.floor(now / (5 * HOUR_MS)) * 5 * HOUR_MS;
      return { start, end: start + 5 * HOUR_MS };
    }
    case "daily": {
      const start = Math.floor(now / DAY_MS) * DAY_MS;
      return { start, end: start + DAY_MS };
    }
    case "weekly": {
      const start = Math.floor((now + MONDAY_SHIFT_MS) / (7 * DAY_MS)) * 7 * DAY_MS - MONDAY_SHIFT_MS;
      return { start, end: start + 7 * DAY_MS };
    }
    case "monthly": {
      const date = new Date(now);
      const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      return { start, end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
    }
  }
}
