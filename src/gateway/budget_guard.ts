import { budgetStatus, dayStartMs, secondsUntilMidnight } from "../accounting/mod.ts";
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

/** The server's own time zone, used when reporting_timezone is empty. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * Daily budgets without touching the database per request: today's spend per key and in total is kept
 * in memory, loaded once per day (and on start) and increased as usage is recorded, here and (through the
 * cluster channel, within about 100 ms) by every other process on the same database.
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

  constructor(control: ControlPlane, store: Store, now: number, cluster?: ClusterSync) {
    this.#control = control;
    this.#store = store;
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
    this.#peers?.publish({ k: keyId, c: cost, t: now });
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
