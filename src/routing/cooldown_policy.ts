/** Why an account is cooling down; `body_rate_limit` is a rate limit disguised in an error body. */
export type CooldownKind = "rate_limit" | "server" | "auth" | "network" | "payment" | "body_rate_limit";

/** Cooldown after HTTP 429. */
export const RATE_LIMIT_COOLDOWN_MS = 60_000;
/** Cooldown after HTTP 5xx. */
export const SERVER_ERROR_COOLDOWN_MS = 30_000;
/** Cooldown after HTTP 401 or 403. */
export const AUTH_ERROR_COOLDOWN_MS = 300_000;
/** Cooldown after HTTP 402. */
export const PAYMENT_ERROR_COOLDOWN_MS = 300_000;
/** Cooldown after a timeout or connection error. */
export const NETWORK_ERROR_COOLDOWN_MS = 15_000;
/** First step of the body-text rate-limit backoff; each further hit doubles it. */
export const BODY_RATE_LIMIT_BASE_MS = 2_000;
/** Ceiling of the body-text rate-limit backoff. */
export const BODY_RATE_LIMIT_CAP_MS = 300_000;
/** Highest backoff level kept; 2 s × 2^8 already exceeds the cap, so counting further is pointless. */
export const MAX_BACKOFF_LEVEL = 16;
/**
 * Ceiling for an upstream Retry-After: long enough to honour "come back in 20 minutes", short enough
 * that a daily-quota answer does not take the account out for the rest of the day.
 */
export const RETRY_AFTER_CAP_MS = 1_800_000;

/**
 * Ceiling for a cooldown until a quota window's reset: a weekly window plus a day of slack. Longer
 * resets are not believed (a misread unit, not a real window).
 */
export const WINDOW_RESET_CAP_MS = 8 * 86_400_000;
/** Most an account's reset is pushed back, so accounts that share a reset do not all return at once. */
export const RESET_SPREAD_MAX_MS = 30_000;

/**
 * A per-account spread of 1–30 s added to a window reset. It is derived from the account id, not drawn
 * at random, so routing stays pure and the same account always returns at the same moment.
 */
export function resetSpreadMs(accountId: string): number {
  let hash = 2166136261;
  for (let i = 0; i < accountId.length; i++) hash = Math.imul(hash ^ accountId.charCodeAt(i), 16777619);
  return 1_000 + ((hash >>> 0) % (RESET_SPREAD_MAX_MS - 1_000 + 1));
}

/** The fixed duration of a cooldown kind; the body-rate-limit kind depends on the backoff level. */
export function cooldownDurationMs(kind: CooldownKind, backoffLevel: number): number {
  switch (kind) {
    case "rate_limit":
      return RATE_LIMIT_COOLDOWN_MS;
    case "server":
      return SERVER_ERROR_COOLDOWN_MS;
    case "auth":
      return AUTH_ERROR_COOLDOWN_MS;
    case "payment":
      return PAYMENT_ERROR_COOLDOWN_MS;
    case "network":
      return NETWORK_ERROR_COOLDOWN_MS;
    case "body_rate_limit":
      return backoffDurationMs(backoffLevel);
  }
}

/** Body-rate-limit backoff for a level (1 → 2 s, 2 → 4 s, 3 → 8 s …), capped. */
export function backoffDurationMs(level: number): number {
  const exponent = Math.max(Math.min(level, MAX_BACKOFF_LEVEL), 1) - 1;
  return Math.min(BODY_RATE_LIMIT_BASE_MS * 2 ** exponent, BODY_RATE_LIMIT_CAP_MS);
}

/** Whether an upstream's own Retry-After should replace the fixed duration for this kind. */
export function honoursRetryAfter(kind: CooldownKind): boolean {
  switch (kind) {
    case "rate_limit":
    case "body_rate_limit":
    case "server":
      return true;
    // A Retry-After does not repair a bad key or an unpaid bill.
    case "auth":
    case "payment":
    case "network":
      return false;
  }
}
