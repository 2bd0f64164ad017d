import {
  cooldownDurationMs,
  honoursRetryAfter,
  MAX_BACKOFF_LEVEL,
  resetSpreadMs,
  RETRY_AFTER_CAP_MS,
  WINDOW_RESET_CAP_MS,
} from "./cooldown_policy.ts";
import type { CooldownKind } from "./cooldown_policy.ts";
import type { FailureClassification } from "./classify.ts";
import type { CooldownCause, CooldownEntry, RoutingState } from "./routing_state.ts";

/** An account that is cooling down right now, as the dashboard and storage see it. */
export interface ActiveCooldown {
  readonly accountId: string;
  readonly untilMs: number;
  readonly kind: CooldownKind | null;
  readonly remainingSeconds: number;
  /** The failure that set it, when this process knows it (not after a restart). */
  readonly cause?: CooldownCause;
}

/** Whether an account is cooling at `now`. */
export function isCooling(state: RoutingState, accountId: string, now: number): boolean {
  const entry = Object.hasOwn(state.cooldowns, accountId) ? state.cooldowns[accountId] : undefined;
  return entry !== undefined && entry.untilMs > now;
}

/**
 * Records a failed attempt. Failures that are not fallback-eligible leave the state as it is. A new
 * cooldown never shortens a longer one already running (a concurrent request may have set it). When the
 * answer named the reset of a rejected quota window, the account cools until then (plus its spread),
 * not for the fixed duration: a 5 h or weekly window does not refill in 60 s.
 */
export function applyFailure(
  state: RoutingState,
  accountId: string,
  classification: FailureClassification,
  now: number,
  cause?: CooldownCause,
): RoutingState {
  const kind = classification.cooldownKind;
  if (kind === null) return state;
  const previous = Object.hasOwn(state.cooldowns, accountId) ? state.cooldowns[accountId] : undefined;
  const previousLevel = previous?.backoffLevel ?? 0;
  const backoffLevel = kind === "body_rate_limit"
    ? Math.min(previousLevel + 1, MAX_BACKOFF_LEVEL)
    : previousLevel;
  let duration = cooldownDurationMs(kind, backoffLevel);
  if (classification.retryAfterMs !== null && honoursRetryAfter(kind)) {
    duration = Math.min(classification.retryAfterMs, RETRY_AFTER_CAP_MS);
  }
  let until = now + duration;
  if (classification.resetAtMs !== undefined && classification.resetAtMs > now && honoursRetryAfter(kind)) {
    const reset = Math.min(classification.resetAtMs + resetSpreadMs(accountId), now + WINDOW_RESET_CAP_MS);
    // Retry-After still counts when it is the later of the two (CPA takes the latest of all signals).
    until = classification.retryAfterMs !== null ? Math.max(reset, until) : reset;
  }
  const untilMs = Math.max(until, previous && previous.untilMs > now ? previous.untilMs : 0);
  const entry: CooldownEntry = cause === undefined
    ? { untilMs, kind, backoffLevel }
    : { untilMs, kind, backoffLevel, cause };
  return { ...state, cooldowns: { ...state.cooldowns, [accountId]: entry } };
}

/** Records a success: the account's cooldown and backoff level are gone. */
export function applySuccess(state: RoutingState, accountId: string): RoutingState {
  if (!Object.hasOwn(state.cooldowns, accountId)) return state;
  const { [accountId]: _dropped, ...rest } = state.cooldowns;
  return { ...state, cooldowns: rest };
}

/** Clears every cooldown and backoff level (dashboard "Clear all cooldowns"). */
export function clearCooldowns(state: RoutingState): RoutingState {
  return { ...state, cooldowns: {} };
}

/** Loads persisted cooldowns (account id + instant); already expired ones are skipped. */
export function restoreCooldowns(
  state: RoutingState,
  records: readonly { readonly accountId: string; readonly untilMs: number }[],
  now: number,
): RoutingState {
  const cooldowns: Record<string, CooldownEntry> = { ...state.cooldowns };
  for (const record of records) {
    if (record.untilMs <= now) continue;
    const previous = Object.hasOwn(cooldowns, record.accountId) ? cooldowns[record.accountId] : undefined;
    cooldowns[record.accountId] = {
      untilMs: Math.max(record.untilMs, previous?.untilMs ?? 0),
      kind: previous?.kind ?? null,
      backoffLevel: previous?.backoffLevel ?? 0,
    };
  }
  return { ...state, cooldowns };
}

/** The accounts cooling at `now`, soonest expiry first. */
export function activeCooldowns(state: RoutingState, now: number): ActiveCooldown[] {
  const out: ActiveCooldown[] = [];
  for (const [accountId, entry] of Object.entries(state.cooldowns)) {
    if (entry.untilMs <= now) continue;
    out.push({
      accountId,
      untilMs: entry.untilMs,
      kind: entry.kind,
      remainingSeconds: Math.ceil((entry.untilMs - now) / 1000),
      ...(entry.cause === undefined ? {} : { cause: entry.cause }),
    });
  }
  return out.sort((a, b) => a.untilMs - b.untilMs || a.accountId.localeCompare(b.accountId));
}

/**
 * Takes over a cooldown another gateway process decided (workers or instances sharing a database): the
 * later expiry and the higher backoff level win, so two processes that saw failures never shorten each
 * other's cooldown.
 */
export function adoptCooldown(state: RoutingState, accountId: string, entry: CooldownEntry): RoutingState {
  const previous = Object.hasOwn(state.cooldowns, accountId) ? state.cooldowns[accountId] : undefined;
  const merged: CooldownEntry = previous && previous.untilMs > entry.untilMs
    ? { ...previous, backoffLevel: Math.max(previous.backoffLevel, entry.backoffLevel) }
    : { ...entry, backoffLevel: Math.max(previous?.backoffLevel ?? 0, entry.backoffLevel) };
  return { ...state, cooldowns: { ...state.cooldowns, [accountId]: merged } };
}
