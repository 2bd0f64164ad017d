import type { Attempt } from "./types.ts";

/** How accounts sharing a prefix are ordered (the runtime setting `server_account_strategy`). */
export type AccountStrategy = "fill_first" | "round_robin" | "sticky_round_robin";

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
 * fill_first keeps config order; round_robin starts one account later on every request;
 * sticky_round_robin stays on a start account for `stickyLimit` requests. A client's preferred
 * account (sticky client routing) goes first when it is in the run. Returns the new cursors.
 */
export function orderAccounts(
  attempts: readonly Attempt[],
  cursors: Readonly<Record<string, AccountCursor>>,
  options: AccountOrderOptions,
): { attempts: Attempt[]; cursors: Record<string, AccountCursor> } {
  const next: Record<string, AccountCursor> = { ...cursors };
  const out: Attempt[] = [];
  let i = 0;
  while (i < attempts.length) {
    let j = i + 1;
    while (j < attempts.length && attempts[j].routeModel === attempts[i].routeModel) j++;
    let run = attempts.slice(i, j);
    const prefix = run[0].account.prefix;
    if (run.length > 1 && options.strategy !== "fill_first") {
      const limit = options.strategy === "round_robin" ? 1 : Math.max(1, options.stickyLimit);
      const cursor = next[prefix] ?? { start: 0, used: 0 };
      const start = cursor.start % run.length;
      run = [...run.slice(start), ...run.slice(0, start)];
      next[prefix] = cursor.used + 1 >= limit
        ? { start: start + 1, used: 0 }
        : { start, used: cursor.used + 1 };
    }
    const preferred = options.preferred?.[prefix];
    const at = preferred === undefined ? -1 : run.findIndex((a) => a.account.id === preferred);
    if (at > 0) run = [run[at], ...run.slice(0, at), ...run.slice(at + 1)];
    out.push(...run);
    i = j;
  }
  return { attempts: out, cursors: next };
}
