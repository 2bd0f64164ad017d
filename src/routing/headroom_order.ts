import type { Headroom } from "./headroom.ts";
import type { Attempt } from "./types.ts";

/** An account's headroom, or undefined when nothing is known about its limits. */
export type HeadroomLookup = (accountId: string) => Headroom | undefined;

/**
 * Applies headroom to each run of attempts that share a route (the accounts of one `<prefix>/<model>`),
 * after the account strategy ordered it. Accounts whose tightest window is empty move to the end, in
 * their order (soft: never dropped, so the last account is always tried). With `quotaAware` the run is
 * ranked instead: most headroom first, ties broken by the earliest reset, then the strategy's order;
 * an account nothing is known about counts as full, so it gets tried and reports its limits.
 * Returns the input array itself when nothing moves (the usual case).
 */
export function orderByHeadroom(
  attempts: readonly Attempt[],
  headroomOf: HeadroomLookup,
  quotaAware: boolean,
): readonly Attempt[] {
  let out: Attempt[] | null = null;
  let i = 0;
  while (i < attempts.length) {
    let j = i + 1;
    while (j < attempts.length && attempts[j].routeModel === attempts[i].routeModel) j++;
    if (j - i > 1) {
      const run = attempts.slice(i, j);
      const ordered = quotaAware ? rank(run, headroomOf) : sinkExhausted(run, headroomOf);
      if (ordered !== null) {
        out ??= attempts.slice();
        for (let k = 0; k < ordered.length; k++) out[i + k] = ordered[k];
      }
    }
    i = j;
  }
  return out ?? attempts;
}

function sinkExhausted(run: Attempt[], headroomOf: HeadroomLookup): Attempt[] | null {
  const fit: Attempt[] = [];
  const spent: Attempt[] = [];
  for (const attempt of run) {
    const fraction = headroomOf(attempt.account.id)?.fraction;
    (fraction !== undefined && fraction !== null && fraction <= 0 ? spent : fit).push(attempt);
  }
  return spent.length === 0 || fit.length === 0 ? null : [...fit, ...spent];
}

function rank(run: Attempt[], headroomOf: HeadroomLookup): Attempt[] | null {
  const scored = run.map((attempt, index) => {
    const h = headroomOf(attempt.account.id);
    return { attempt, index, fraction: h?.fraction ?? 1, reset: h?.resetAtMs ?? Infinity };
  });
  scored.sort((a, b) => b.fraction - a.fraction || a.reset - b.reset || a.index - b.index);
  return scored.some((s, k) => s.index !== k) ? scored.map((s) => s.attempt) : null;
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
