import type { Attempt } from "./types.ts";

/** How accounts sharing a prefix are ordered (the runtime setting `server_account_strategy`). */
export type AccountStrategy = "fill_first" | "round_robin" | "sticky_round_robin" | "quota_aware";

/** Where rotation stands for one prefix: the account to start with and how often it has started. */
export interface AccountCursor {
  readonly start: number;
  readonly used: number;
}

/** Inputs of one ordering decision. */
export interface AccountOrderOptions {
  readonly strategy: AccountStrategy;
  /** Requests kept on one account before sticky_round_robin advances (round_robin uses 1). */
  readonly stickyLimit: number;
  /** The account this client used last per prefix, when sticky client routing is on. */
  readonly preferred?: Readonly<Record<string, string>>;
}

/**
 * Reorders each run of attempts that share a route (the accounts of one `<prefix>/<model>`):
 * fill_first (and quota_aware, ranked later by headroom) keeps config order; round_robin starts one account later on every request;
 * sticky_round_robin stays on a start account for `stickyLimit` requests. A client's preferred
 * account (sticky client routing) goes first when it is in the run. Returns the new cursors.
 */
export function orderAccounts(
  attempts: readonly Attempt[],
  cursors: Readonly<Record<string, AccountCursor>>,
  options: AccountOrderOptions,
): { attempts: Attempt[]; cursors: Readonly<Record<string, AccountCursor>> } {
  // The cursors are copied on the first change only; most requests (a single account per route, or
  // fill_first) change none and hand the same object back.
  let next: Record<string, AccountCursor> | undefined;
  // Config order to start with; only runs of several accounts can be rewritten in place.
  const out = attempts.slice();
  let i = 0;
  while (i < attempts.length) {
    let j = i + 1;
    while (j < attempts.length && attempts[j].routeModel === attempts[i].routeModel) j++;
    // A lone account has nothing to rotate and is first whichever account is preferred.
    if (j - i > 1) next = orderRun(out, i, j, cursors, next, options);
    i = j;
  }
  return { attempts: out, cursors: next ?? cursors };
}

/** Reorders the run `out[from, to)` in place; returns the cursors, copied if this run moved one. */
function orderRun(
  out: Attempt[],
  from: number,
  to: number,
  cursors: Readonly<Record<string, AccountCursor>>,
  next: Record<string, AccountCursor> | undefined,
  options: AccountOrderOptions,
): Record<string, AccountCursor> | undefined {
  const prefix = out[from].account.prefix;
  // quota_aware starts from config order; orderByHeadroom ranks the run afterwards.
  const rotates = options.strategy !== "fill_first" && options.strategy !== "quota_aware";
  // Config order and no preferred account: nothing to rewrite (no copy of a thousand-account run).
  if (!rotates && options.preferred?.[prefix] === undefined) return next;
  let run = out.slice(from, to);
  if (rotates) {
    const limit = options.strategy === "round_robin" ? 1 : Math.max(1, options.stickyLimit);
    const cursor = (next ?? cursors)[prefix] ?? { start: 0, used: 0 };
    const start = cursor.start % run.length;
    run = [...run.slice(start), ...run.slice(0, start)];
    next ??= { ...cursors };
    next[prefix] = cursor.used + 1 >= limit
      ? { start: start + 1, used: 0 }
      : { start, used: cursor.used + 1 };
  }
  const preferred = options.preferred?.[prefix];
  const at = preferred === undefined ? -1 : run.findIndex((a) => a.account.id === preferred);
  if (at > 0) run = [run[at], ...run.slice(0, at), ...run.slice(at + 1)];
  for (let k = 0; k < run.length; k++) out[from + k] = run[k];
  return next;
}
