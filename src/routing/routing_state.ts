import type { CooldownKind } from "./cooldown_policy.ts";

/** One account's cooldown. Kept after expiry so that the backoff level survives until a success. */
export interface CooldownEntry {
  /** Epoch ms at which the account is available again. */
  readonly untilMs: number;
  /** Why it cools; null when restored from storage, which keeps only the instant. */
  readonly kind: CooldownKind | null;
  /** Consecutive body-text rate-limit hits; reset by a success. */
  readonly backoffLevel: number;
  /** What made it cool, for the 503 that says why and the Routing screen; absent when restored. */
  readonly cause?: CooldownCause;
}

/** The failure behind a cooldown: the upstream's status, a short (redacted) message, and when. */
export interface CooldownCause {
  readonly status: number;
  readonly message: string;
  readonly sinceMs: number;
}

/** Where a round-robin combo stands: the current start member and how many requests it has had. */
export interface ComboCursor {
  readonly member: number;
  readonly used: number;
}

/** Routing's mutable facts as immutable data; every routing function returns the next state. */
export interface RoutingState {
  readonly comboCursor: Readonly<Record<string, ComboCursor>>;
  readonly cooldowns: Readonly<Record<string, CooldownEntry>>;
}

/** A state with no cooldowns and every combo at its first member. */
export function emptyRoutingState(): RoutingState {
  return { comboCursor: {}, cooldowns: {} };
}
