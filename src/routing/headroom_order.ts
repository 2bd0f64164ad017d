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
  /** The accounts whose tightest window is empty now; with none and no ranking, nothing moves. */
  spent: ReadonlySet<string>,
): readonly Attempt[] {
  if (!quotaAware && spent.size === 0) return attempts;
  let out: Attempt[] | null = null;
  let i = 0;
  while (i < attempts.length) {
    let j = i + 1;
    while (j < attempts.length && attempts[j].routeModel === attempts[i].routeModel) j++;
    if (j - i > 1) {
      const run = attempts.slice(i, j);
      const ordered = quotaAware ? rank(run, headroomOf, spent) : sinkSpent(run, spent);
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

function rank(
  run: readonly Attempt[],
  headroomOf: HeadroomLookup,
  spent: ReadonlySet<string>,
): Attempt[] | null {
  // A bounded insertion into the best RANKED_AHEAD, kept as parallel arrays: one pass over the run,
  // no sort and no allocation per account.
  const index: number[] = [];
  const fraction: number[] = [];
  const reset: number[] = [];
  const better = (f: number, r: number, i: number, k: number) =>
    f > fraction[k] || (f === fraction[k] && (r < reset[k] || (r === reset[k] && i < index[k])));
  for (let i = 0; i < run.length; i++) {
    const h = headroomOf(run[i].account.id);
    const f = h?.fraction ?? 1;
    const r = h?.resetAtMs ?? Infinity;
    const n = index.length;
    if (n === RANKED_AHEAD && !better(f, r, i, n - 1)) continue;
    let at = n;
    while (at > 0 && better(f, r, i, at - 1)) at--;
    index.splice(at, 0, i);
    fraction.splice(at, 0, f);
    reset.splice(at, 0, r);
    if (index.length > RANKED_AHEAD) {
      index.pop();
      fraction.pop();
      reset.pop();
    }
  }
  const taken = new Uint8Array(run.length);
  for (const i of index) taken[i] = 1;
  // One pass behind the ranked ones: fit accounts in the strategy's order, spent ones after them.
  const out = index.map((i) => run[i]);
  const sunk: Attempt[] = [];
  for (let i = 0; i < run.length; i++) {
    if (taken[i] === 1) continue;
    (spent.has(run[i].account.id) ? sunk : out).push(run[i]);
  }
  for (const attempt of sunk) out.push(attempt);
  for (let k = 0; k < out.length; k++) if (out[k] !== run[k]) return out;
  return null;
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
