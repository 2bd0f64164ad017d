import type { Headroom } from "./headroom.ts";
import type { Attempt } from "./types.ts";

/** An account's headroom, or undefined when nothing is known about its limits. */
export type HeadroomLookup = (accountId: string) => Headroom | undefined;

/**
 * Applies headroom to each run of attempts that share a route (the accounts of one `<prefix>/<model>`),
 * after the account strategy ordered it. Accounts whose tightest window is empty move to the end, in
 * their order (soft: never dropped, so the last account is always tried). With `quotaAware` the run is
 * ranked instead: most headroom first, ties broken by the earliest reset, then the strategy's order;
 * an account nothing is known about counts as full, so it gets tried and reports its limits. Only the
 * best RANKED_AHEAD are ranked; behind them the rest keep the strategy's order with spent accounts last,
 * which keeps a thousand-account run cheap (a request seldom falls back that far).
 * Returns the input array itself when nothing moves (the usual case).
 */
export function orderByHeadroom(
  attempts: readonly Attempt[],
  headroomOf: HeadroomLookup,
  quotaAware: boolean,
  /**
   * The accounts whose tightest window is empty now; with none and no ranking, nothing moves. The soft
   * sink reads it; quota_aware learns the same from the headroom it looks up for each account anyway.
   */
  spent: ReadonlySet<string>,
): readonly Attempt[] {
  if (!quotaAware && spent.size === 0) return attempts;
  let out: Attempt[] | null = null;
  let i = 0;
  while (i < attempts.length) {
    let j = i + 1;
    while (j < attempts.length && attempts[j].routeModel === attempts[i].routeModel) j++;
    if (j - i > 1) {
      const ordered = quotaAware ? rank(attempts, i, j, headroomOf) : sinkSpent(attempts.slice(i, j), spent);
      // One run that is the whole list (the usual single-route request): the ranked run is the answer.
      if (ordered !== null && i === 0 && j === attempts.length) return ordered;
      if (ordered !== null) {
        out ??= attempts.slice();
        for (let k = 0; k < ordered.length; k++) out[i + k] = ordered[k];
      }
    }
    i = j;
  }
  return out ?? attempts;
}

/** How many accounts quota_aware ranks by headroom; the rest follow in the strategy's order. */
export const RANKED_AHEAD = 16;

/** Whether an account's tightest window is empty (it goes last). */
export function isSpent(headroom: Headroom | undefined): boolean {
  return headroom !== undefined && headroom.fraction !== null && headroom.fraction <= 0;
}

function sinkSpent(run: readonly Attempt[], spentIds: ReadonlySet<string>): Attempt[] | null {
  if (spentIds.size === 0) return null;
  // No allocation until a spent account is found: the usual run has none.
  let first = 0;
  while (first < run.length && !spentIds.has(run[first].account.id)) first++;
  if (first === run.length) return null;
  const fit = run.slice(0, first);
  const spent = [run[first]];
  for (let k = first + 1; k < run.length; k++) (spentIds.has(run[k].account.id) ? spent : fit).push(run[k]);
  return fit.length === 0 ? null : [...fit, ...spent];
}

/**
 * Ranks attempts[from, to): the best RANKED_AHEAD by (most headroom, earliest reset) first, then the rest
 * in the strategy's order with spent accounts last; null when nothing moves. One headroom lookup per
 * account (its spent state comes from the same lookup, so no set is consulted), the best kept in typed
 * arrays by insertion: no sort and no allocation per account. Accounts are visited in the strategy's
 * order and only a strictly better one displaces another, so that order is the last tie-break.
 */
function rank(
  attempts: readonly Attempt[],
  from: number,
  to: number,
  headroomOf: HeadroomLookup,
): Attempt[] | null {
  const n = to - from;
  const k = Math.min(RANKED_AHEAD, n);
  const topIndex = new Int32Array(k);
  const topFraction = new Float64Array(k);
  const topReset = new Float64Array(k);
  // Per account: 0 = behind the ranked ones, 1 = ranked ahead, 2 = spent (goes last).
  const place = new Uint8Array(n);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const h = headroomOf(attempts[from + i].account.id);
    const f = h === undefined || h.fraction === null ? 1 : h.fraction;
    const r = h === undefined || h.resetAtMs === null ? Infinity : h.resetAtMs;
    if (isSpent(h)) place[i] = 2;
    let at = size < k ? size : k - 1;
    if (size === k && !(f > topFraction[at] || (f === topFraction[at] && r < topReset[at]))) continue;
    while (at > 0 && (f > topFraction[at - 1] || (f === topFraction[at - 1] && r < topReset[at - 1]))) {
      topIndex[at] = topIndex[at - 1];
      topFraction[at] = topFraction[at - 1];
      topReset[at] = topReset[at - 1];
      at--;
    }
    topIndex[at] = i;
    topFraction[at] = f;
    topReset[at] = r;
    if (size < k) size++;
  }
  const out: Attempt[] = new Array(n);
  let moved = false;
  for (let p = 0; p < size; p++) {
    place[topIndex[p]] = 1;
    out[p] = attempts[from + topIndex[p]];
    if (topIndex[p] !== p) moved = true;
  }
  let at = size;
  let sunk = 0;
  for (let i = 0; i < n; i++) {
    if (place[i] === 2) sunk++;
    if (place[i] !== 0) continue;
    if (i !== at) moved = true;
    out[at++] = attempts[from + i];
  }
  for (let i = 0; sunk > 0 && i < n; i++) {
    if (place[i] !== 2) continue;
    if (i !== at) moved = true;
    out[at++] = attempts[from + i];
    sunk--;
  }
  return moved ? out : null;
}

/**
 * Puts `accountId` first in its run when it is there and has headroom (prompt-cache affinity): the
 * account that holds a conversation's cached prefix wins over rotation while it is healthy.
 */
export function preferAccount(
  attempts: readonly Attempt[],
  accountId: string,
  headroomOf: HeadroomLookup,
): readonly Attempt[] {
  const at = attempts.findIndex((a) => a.account.id === accountId);
  if (at <= 0) return attempts;
  const fraction = headroomOf(accountId)?.fraction;
  if (fraction !== undefined && fraction !== null && fraction <= 0) return attempts;
  let start = at;
  while (start > 0 && attempts[start - 1].routeModel === attempts[at].routeModel) start--;
  if (start === at) return attempts;
  const out = attempts.slice();
  out.splice(at, 1);
  out.splice(start, 0, attempts[at]);
  return out;
}
