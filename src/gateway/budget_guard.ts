import { budgetStatus, dayStartMs, localTimeZone, secondsUntilMidnight } from "../accounting/mod.ts";
import { GatewayError } from "../model/mod.ts";
import type { BudgetRecord, Store } from "../storage/mod.ts";
import type { ClusterChannel, ClusterSync } from "./cluster_sync.ts";
import type { ControlPlane } from "./control_plane.ts";

/** Spend one process tells the others about: key id (null without a key), cost, when. */
interface SpendMessage {
  readonly k: number | null;
  readonly c: number;
  readonly t: number;
}

/**
 * The share of a daily limit one process may hold back unpublished: once its recorded-but-unpublished spend
 * under a budget reaches this fraction of that budget's limit, it publishes at once instead of at the next
 * 50 ms tick. With W processes the others can know at most (W − 1) × 1 % of the limit less than was spent.
 */
export const BUDGET_SLICE = 0.01;

/**
 * Daily budgets without touching the database per request: today's spend per key and in total is kept
 * in memory, loaded once per day (and on start) and increased as usage is recorded, here and (through the
 * cluster channel) by every other process on the same database. With other processes present, the spend
 * they publish is read just before a budgeted request is admitted, and each process publishes its own
 * spend at once whenever a budget's slice of it (BUDGET_SLICE) is unpublished; so a budget can be
 * overshot across processes by at most (W − 1) slices beyond what one process overshoots by (the
 * requests already in flight when the limit is crossed). See docs/scaling.md.
 */
export class BudgetGuard {
  readonly #control: ControlPlane;
  readonly #store: Store;
  #dayStart = -1;
  #nextDayStart = -1;
  #zone = "";
  readonly #localZone = localTimeZone();
  #total = 0;
  #byKey = new Map<number, number>();
  readonly #peers: ClusterChannel<SpendMessage> | null;
  readonly #cluster: ClusterSync | null;
  /** Spend recorded here since the last flush this guard made (an upper bound of what is unpublished). */
  #unsentTotal = 0;
  readonly #unsentByKey = new Map<number, number>();

  constructor(control: ControlPlane, store: Store, now: number, cluster?: ClusterSync) {
    this.#control = control;
    this.#store = store;
    this.#cluster = cluster ?? null;
    // Today's spend is read now, so spend other processes report from here on adds to it.
    this.#roll(now);
    this.#peers = cluster?.channel<SpendMessage>("spend", (messages) => {
      // Spend from another day is left to the next day's reload from the usage table.
      for (const m of messages) if (m.t >= this.#dayStart && m.t < this.#nextDayStart) this.#count(m.k, m.c);
    }) ?? null;
  }

  /** The reporting time zone in force. */
  zone(): string {
    return this.#control.settings.reporting_timezone || this.#localZone;
  }

  /** Adds a recorded cost to today's totals. */
  add(keyId: number | null, cost: number, now: number): void {
    this.#roll(now);
    if (cost <= 0) return;
    this.#count(keyId, cost);
    if (this.#peers === null || this.#cluster === null || this.#cluster.peers === 0) return;
    this.#peers.publish({ k: keyId, c: cost, t: now });
    if (this.#control.budgets.length === 0) return;
    this.#unsentTotal += cost;
    const unsentKey = keyId === null ? 0 : (this.#unsentByKey.get(keyId) ?? 0) + cost;
    if (keyId !== null) this.#unsentByKey.set(keyId, unsentKey);
    // Publish at once when a budget's slice is held back here; otherwise the tick sends it with the rest.
    let due = false;
    for (const budget of this.#control.budgets) {
      const unsent = budget.keyId === null ? this.#unsentTotal : budget.keyId === keyId ? unsentKey : 0;
      if (unsent >= budget.dailyLimit * BUDGET_SLICE) due = true;
    }
    if (!due) return;
    this.#peers.flush();
    this.#unsentTotal = 0;
    this.#unsentByKey.clear();
  }

  #count(keyId: number | null, cost: number): void {
    this.#total += cost;
    if (keyId !== null) this.#byKey.set(keyId, (this.#byKey.get(keyId) ?? 0) + cost);
  }

  /** Today's spend for a scope (null = everything). */
  spentToday(keyId: number | null, now: number): number {
    this.#roll(now);
    return keyId === null ? this.#total : this.#byKey.get(keyId) ?? 0;
  }

  /** Throws the spec's 429 when the key's or the global budget is exceeded. */
  check(keyId: number | null, now: number): void {
    const budgets = this.#control.budgets;
    const scopes: (BudgetRecord | undefined)[] = [
      keyId === null ? undefined : budgets.find((b) => b.keyId === keyId),
      budgets.find((b) => b.keyId === null),
    ];
    // Decide on the others' latest published spend, not on what the last tick brought (one indexed read,
    // only for requests a budget applies to and only while other processes share the database).
    if ((scopes[0] || scopes[1]) && this.#cluster !== null && this.#cluster.peers > 0) {
      this.#cluster.receiveNow();
    }
    for (const budget of scopes) {
      if (!budget) continue;
      const spent = this.spentToday(budget.keyId, now);
      const status = budgetStatus({
        dailyLimit: budget.dailyLimit,
        warnPct: budget.warnPct,
        spentToday: spent,
      });
      if (status.status !== "exceeded") continue;
      const scope = budget.keyId === null ? "Global" : "This API key's";
      const message = `${scope} daily budget of $${budget.dailyLimit.toFixed(2)} is exceeded ` +
        `(spent $${spent.toFixed(4)} today); it resets at midnight (${this.zone()})`;
      throw new GatewayError(429, "budget_exceeded", message, {
        headers: { "retry-after": String(secondsUntilMidnight(now, this.zone())) },
        fixedBody: {
          error: {
            message,
            type: "budget_exceeded",
            today_spend: round(spent),
            daily_limit: budget.dailyLimit,
          },
        },
      });
    }
  }

  #roll(now: number): void {
    const zone = this.zone();
    // Time-zone arithmetic is costly; it runs only when the day (or the zone setting) changes.
    if (zone === this.#zone && now >= this.#dayStart && now < this.#nextDayStart) return;
    const start = dayStartMs(now, zone);
    this.#dayStart = start;
    this.#nextDayStart = now + secondsUntilMidnight(now, zone) * 1000;
    this.#zone = zone;
    const spend = this.#store.usage.spendSince(start);
    this.#total = spend.total;
    this.#byKey = spend.byKey;
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
