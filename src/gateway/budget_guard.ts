import {
  budgetPeriod,
  budgetRejection,
  dayStartMs,
  localTimeZone,
  type PeriodBudgetStatus,
  periodStatus,
  secondsUntilMidnight,
  worstBudget,
} from "../accounting/mod.ts";
import { GatewayError } from "../model/mod.ts";
import type { PeriodBudgetRecord, Store } from "../storage/mod.ts";
import type { ClusterChannel, ClusterSync } from "./cluster_sync.ts";
import type { ControlPlane } from "./control_plane.ts";
import type { ClientIdentity } from "./identity.ts";
import { PeriodSpend } from "./period_spend.ts";

/** Hears a budget at or over its warn threshold after a cost was recorded (alerts, webhooks). */
export type BudgetLevelListener = (
  budget: PeriodBudgetRecord,
  status: PeriodBudgetStatus,
  now: number,
) => void;

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
  /** Spend of the budgets beyond the daily key and global ones (weeks, months, rolling, groups). */
  readonly #periods: PeriodSpend;
  #listeners: BudgetLevelListener[] = [];
  /** The budgets by scope, so a request looks only at its key's, its group's and the global ones. */
  #index: BudgetIndex = indexBudgets([]);

  /**
   * `clock` times the reloads (a new rolling budget is seeded from the window ending then). The caller
   * flushes queued usage rows before each reload (GatewayRuntime), so a new budget starts from all spend.
   */
  constructor(
    control: ControlPlane,
    store: Store,
    now: number,
    cluster?: ClusterSync,
    clock: () => number = () => now,
  ) {
    this.#control = control;
    this.#store = store;
    this.#cluster = cluster ?? null;
    this.#periods = new PeriodSpend({
      spendSince: (since) => store.usage.spendSince(since),
      groupOf: (keyId) => control.key(keyId)?.groupId ?? null,
    });
    this.#periods.configure(control.periodBudgets, now, this.zone());
    this.#index = indexBudgets(control.periodBudgets);
    control.onReload(() => {
      this.#periods.configure(control.periodBudgets, clock(), this.zone());
      this.#index = indexBudgets(control.periodBudgets);
    });
    // Today's spend is read now, so spend other processes report from here on adds to it.
    this.#roll(now);
    this.#peers = cluster?.channel<SpendMessage>("spend", (messages) => {
      for (const m of messages) {
        this.#periods.add(m.k, m.c, m.t);
        // Spend from another day is left to the next day's reload from the usage table.
        if (m.t >= this.#dayStart && m.t < this.#nextDayStart) this.#count(m.k, m.c);
      }
    }) ?? null;
  }

  /** Registers a listener told when a recorded cost leaves a budget at or over its warn threshold. */
  onLevel(listener: BudgetLevelListener): void {
    this.#listeners.push(listener);
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
    this.#periods.add(keyId, cost, now);
    if (this.#listeners.length > 0) this.#tellLevels(keyId, now);
    if (this.#peers === null || this.#cluster === null || this.#cluster.peers === 0) return;
    this.#peers.publish({ k: keyId, c: cost, t: now });
    const budgets = this.#control.periodBudgets;
    if (budgets.length === 0) return;
    this.#unsentTotal += cost;
    const unsentKey = keyId === null ? 0 : (this.#unsentByKey.get(keyId) ?? 0) + cost;
    if (keyId !== null) this.#unsentByKey.set(keyId, unsentKey);
    const groupId = keyId === null ? null : this.#control.key(keyId)?.groupId ?? null;
    // Publish at once when a budget's slice is held back here; otherwise the tick sends it with the rest.
    // (A group's budget is measured against the key's unsent spend: a bound per key, not per group.)
    let due = false;
    for (const budget of this.#index.applying(keyId, groupId)) {
      const unsent = budget.scope.kind === "global" ? this.#unsentTotal : unsentKey;
      if (unsent >= budget.limit * BUDGET_SLICE) due = true;
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

  /**
   * Throws the budget 429 when a budget with a hard stop that applies to the caller (its key's, its
   * group's, the global ones, of every period) is exceeded: the spec's body for a daily budget, the same
   * shape with a `period` field for the others. Among several exceeded, the one that resets last.
   */
  check(identity: ClientIdentity, now: number): void {
    const keyId = identity.kind === "db" ? identity.keyId : null;
    const groupId = identity.kind === "db" ? identity.groupId : null;
    const budgets = this.#index.applying(keyId, groupId);
    if (budgets.length === 0) return;
    let worst: { budget: PeriodBudgetRecord; status: PeriodBudgetStatus } | null = null;
    // Decide on the others' latest published spend, not on what the last tick brought (one indexed read,
    // only for requests a budget applies to and only while other processes share the database).
    if (this.#cluster !== null && this.#cluster.peers > 0) this.#cluster.receiveNow();
    // The key's budgets come first: on a tie the most specific one answers.
    const zone = this.zone();
    for (const budget of budgets) {
      if (!budget.hardStop) continue;
      // Most budgets are under their limit: that is decided on one number, the verdict built only when over.
      if (budget.limit > 0 && this.#spent(budget, now, zone) < budget.limit) continue;
      const status = this.status(budget, now);
      if (status.status !== "exceeded") continue;
      if (worst === null || worstBudget([worst.status, status]) === status) worst = { budget, status };
    }
    if (worst === null) return;
    const rejection = budgetRejection(worst.status, worst.budget.scope.kind, this.zone());
    throw new GatewayError(429, "budget_exceeded", rejection.message, {
      headers: { "retry-after": String(rejection.retryAfterSeconds) },
      fixedBody: rejection.body,
    });
  }

  /** Where one budget stands now (the Budgets screen, `keys list`, the check). */
  status(budget: PeriodBudgetRecord, now: number): PeriodBudgetStatus {
    if (budget.period === "day" && budget.scope.kind !== "group") {
      // The spec's daily budgets keep their own totals (the same the dashboard shows as today's spend).
      const spent = this.spentToday(budget.scope.kind === "key" ? budget.scope.keyId : null, now);
      const resetAt = this.#nextDayStart;
      return periodStatus(
        { period: budgetPeriod("day"), limit: budget.limit, warnPct: budget.warnPct },
        spent,
        { start: this.#dayStart, end: resetAt },
        now,
      );
    }
    return this.#periods.status(budget, now, this.zone());
  }

  #spent(budget: PeriodBudgetRecord, now: number, zone: string): number {
    if (budget.period === "day" && budget.scope.kind !== "group") {
      return this.spentToday(budget.scope.kind === "key" ? budget.scope.keyId : null, now);
    }
    return this.#periods.spent(budget, now, zone);
  }

  #tellLevels(keyId: number | null, now: number): void {
    const groupId = keyId === null ? null : this.#control.key(keyId)?.groupId ?? null;
    const zone = this.zone();
    for (const budget of this.#index.applying(keyId, groupId)) {
      // Under the warn threshold nothing is told: decided on one number, the status built only above it.
      if (budget.limit > 0 && this.#spent(budget, now, zone) < (budget.limit * budget.warnPct) / 100) {
        continue;
      }
      const status = this.status(budget, now);
      if (status.status === "ok") continue;
      for (const listener of this.#listeners) listener(budget, status, now);
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

/** Budgets by scope: a request's are its key's, its group's and the global ones, found by two lookups. */
interface BudgetIndex {
  applying(keyId: number | null, groupId: number | null): readonly PeriodBudgetRecord[];
}

function indexBudgets(budgets: readonly PeriodBudgetRecord[]): BudgetIndex {
  const global = budgets.filter((b) => b.scope.kind === "global");
  const byKey = new Map<number, PeriodBudgetRecord[]>();
  const byGroup = new Map<number, PeriodBudgetRecord[]>();
  for (const b of budgets) {
    if (b.scope.kind === "key") byKey.set(b.scope.keyId, [...byKey.get(b.scope.keyId) ?? [], b]);
    if (b.scope.kind === "group") byGroup.set(b.scope.groupId, [...byGroup.get(b.scope.groupId) ?? [], b]);
  }
  // Lists per (key, group) pair are made once and kept: the request path allocates nothing.
  const combined = new Map<string, readonly PeriodBudgetRecord[]>();
  const none: readonly PeriodBudgetRecord[] = [];
  return {
    applying(keyId, groupId) {
      const own = keyId === null ? undefined : byKey.get(keyId);
      const group = groupId === null ? undefined : byGroup.get(groupId);
      if (own === undefined && group === undefined) return global.length === 0 ? none : global;
      const id = `${keyId}:${groupId}`;
      let list = combined.get(id);
      if (list === undefined) {
        list = [...own ?? [], ...group ?? [], ...global];
        combined.set(id, list);
      }
      return list;
    },
  };
}
