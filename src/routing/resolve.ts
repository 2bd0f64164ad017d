import {
  bareModelMessage,
  deadComboMessage,
  disabledPrefixMessage,
  unknownPrefixMessage,
} from "./messages.ts";
import { parseModelRef } from "./model_ref.ts";
import { canonicalPrefix, type RoutingTable } from "./routing_table.ts";
import type { ComboCursor, RoutingState } from "./routing_state.ts";
import type { Attempt, ComboStrategy } from "./types.ts";

/** The runtime settings that shape attempt resolution. */
export interface ResolveOptions {
  readonly cooldownsEnabled: boolean;
  readonly comboStrategy: ComboStrategy;
  /** Requests kept on one member before round_robin advances; values below 1 count as 1. */
  readonly comboStickyLimit: number;
}

/** The outcome of resolving a model string. */
export type Resolution =
  | { readonly kind: "attempts"; readonly attempts: readonly Attempt[]; readonly nextState: RoutingState }
  | {
    readonly kind: "all_cooling";
    readonly model: string;
    readonly retryAfterSeconds: number;
    /** Every account the model could use, each cooling (the 503 says why, per account). */
    readonly accounts: readonly string[];
  }
  | { readonly kind: "unknown"; readonly message: string };

type Expansion =
  | { readonly kind: "ok"; readonly attempts: readonly Attempt[] }
  | { readonly kind: "unknown"; readonly message: string };

/**
 * Turns the client's model string into the ordered attempts to try: a combo expands to its members
 * (rotated under round_robin), each member to every enabled account of its prefix, and accounts that
 * are cooling down are left out. Fusion combos expand like fallback; the fusion planner uses the order.
 */
export function resolveAttempts(
  table: RoutingTable,
  model: string,
  state: RoutingState,
  now: number,
  options: ResolveOptions,
): Resolution {
  const members = table.combos.get(model);
  let candidates: readonly Attempt[];
  let nextState = state;
  if (members !== undefined) {
    const ordered = orderComboMembers(model, members, state, options);
    nextState = ordered.nextState;
    candidates = expandMembers(table, ordered.members);
    if (candidates.length === 0) return { kind: "unknown", message: deadComboMessage(model, members) };
  } else {
    const expansion = expandModel(table, model);
    if (expansion.kind === "unknown") return expansion;
    candidates = expansion.attempts;
  }
  const available = withoutSkipped(candidates, state, now, options.cooldownsEnabled);
  if (available.length > 0) return { kind: "attempts", attempts: available, nextState };
  return {
    kind: "all_cooling",
    model,
    retryAfterSeconds: secondsUntilEarliestExpiry(state, candidates, now),
    accounts: [...new Set(candidates.map((c) => c.account.id))],
  };
}

/**
 * Attempts remembered per table. Clients can send any model string for a known prefix, and each one
 * expands to an attempt per account, so the bound is on attempts (memory), not on strings.
 */
const MAX_MEMO_ATTEMPTS = 65_536;

/** Expands one `<prefix>/<model>` string to one attempt per enabled account of its (canonical) prefix. */
export function expandModel(table: RoutingTable, model: string): Expansion {
  const memo = table.expansions.byModel.get(model);
  if (memo !== undefined) return { kind: "ok", attempts: memo };
  const expansion = expandUncached(table, model);
  if (expansion.kind === "ok" && table.expansions.attempts + expansion.attempts.length <= MAX_MEMO_ATTEMPTS) {
    table.expansions.byModel.set(model, expansion.attempts);
    table.expansions.attempts += expansion.attempts.length;
  }
  return expansion;
}

function expandUncached(table: RoutingTable, model: string): Expansion {
  const ref = parseModelRef(model);
  if (ref === null) return { kind: "unknown", message: bareModelMessage(model) };
  const prefix = canonicalPrefix(table, ref.prefix);
  if (prefix === null) return { kind: "unknown", message: unknownPrefixMessage(model, ref.prefix) };
  const accounts = table.accountsByPrefix.get(prefix);
  if (accounts === undefined || accounts.length === 0) {
    return { kind: "unknown", message: disabledPrefixMessage(model, prefix) };
  }
  // Without an alias the route is the model string itself; no need to join it again.
  const routeModel = prefix === ref.prefix ? model : `${prefix}/${ref.model}`;
  return {
    kind: "ok",
    attempts: accounts.map((account) => ({ account, upstreamModel: ref.model, routeModel })),
  };
}

// Unroutable members are skipped (a combo outlives a deleted provider); the same account and model
// reached twice is tried once.
function expandMembers(table: RoutingTable, members: readonly string[]): Attempt[] {
  const seen = new Set<string>();
  const out: Attempt[] = [];
  for (const member of members) {
    const expansion = expandModel(table, member);
    if (expansion.kind === "unknown") continue;
    for (const attempt of expansion.attempts) {
      const key = `${attempt.account.id}\u0000${attempt.upstreamModel}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(attempt);
    }
  }
  return out;
}

function orderComboMembers(
  name: string,
  members: readonly string[],
  state: RoutingState,
  options: ResolveOptions,
): { members: readonly string[]; nextState: RoutingState } {
  switch (options.comboStrategy) {
    case "fallback":
    case "fusion":
      return { members, nextState: state };
    case "round_robin": {
      if (members.length < 2) return { members, nextState: state };
      const limit = Math.max(Math.floor(options.comboStickyLimit), 1);
      const previous = Object.hasOwn(state.comboCursor, name) ? state.comboCursor[name] : undefined;
      let member = (previous?.member ?? 0) % members.length;
      let used = previous?.used ?? 0;
      if (used >= limit) {
        member = (member + 1) % members.length;
        used = 0;
      }
      const cursor: ComboCursor = { member, used: used + 1 };
      return {
        members: [...members.slice(member), ...members.slice(0, member)],
        nextState: { ...state, comboCursor: { ...state.comboCursor, [name]: cursor } },
      };
    }
  }
}

/** The candidates that are not skipped; the list itself when none is (the usual case: no cooldowns). */
function withoutSkipped(
  candidates: readonly Attempt[],
  state: RoutingState,
  now: number,
  cooldownsEnabled: boolean,
): readonly Attempt[] {
  // Cooldowns are few and candidates can be a thousand: look at the cooldowns first.
  let anyActive = false;
  for (const id in state.cooldowns) {
    if (state.cooldowns[id].untilMs > now) {
      anyActive = true;
      break;
    }
  }
  if (!anyActive) return candidates;
  for (let i = 0; i < candidates.length; i++) {
    if (!isSkipped(state, candidates[i].account.id, now, cooldownsEnabled)) continue;
    // Only now is a shorter list needed.
    return candidates.filter((a) => !isSkipped(state, a.account.id, now, cooldownsEnabled));
  }
  return candidates;
}

// With cooldowns switched off accounts are retried at once, except after a 402: the spec cools a
// payment error regardless of the setting, since retrying an unpaid account cannot succeed.
function isSkipped(state: RoutingState, accountId: string, now: number, cooldownsEnabled: boolean): boolean {
  const entry = Object.hasOwn(state.cooldowns, accountId) ? state.cooldowns[accountId] : undefined;
  if (entry === undefined || entry.untilMs <= now) return false;
  return cooldownsEnabled || entry.kind === "payment";
}

function secondsUntilEarliestExpiry(
  state: RoutingState,
  candidates: readonly Attempt[],
  now: number,
): number {
  let earliest = Infinity;
  for (const attempt of candidates) {
    const entry = state.cooldowns[attempt.account.id];
    if (entry !== undefined && entry.untilMs > now) earliest = Math.min(earliest, entry.untilMs);
  }
  return Number.isFinite(earliest) ? Math.max(Math.ceil((earliest - now) / 1000), 1) : 1;
}
