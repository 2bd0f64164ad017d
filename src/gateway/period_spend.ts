/**
 * Spend per budget period and scope, in memory, for the budgets beyond the spec's daily key and global ones:
 * weeks, months, rolling windows, and key groups of any period. A calendar period's spend per key is read
 * from the usage table when its window starts (or the reporting zone changes) and then grows with every
 * recorded cost, here and from the other processes; a group's is the sum of its keys'. A rolling window is a
 * RollingSpend ring; at start it is seeded with the window's spend as if spent now (so it leaves late,
 * never early).
 */
import {
  type BudgetPeriod,
  budgetPeriod,
  type PeriodBudgetStatus,
  periodStatus,
  PeriodWindows,
  RollingSpend,
} from "../accounting/mod.ts";
import type { PeriodBudgetRecord } from "../storage/mod.ts";

/** Where spend comes from and who belongs to which group. */
export interface PeriodSpendSource {
  /** Spend since an instant, in total and per key (the usage table). */
  spendSince(sinceMs: number): { total: number; byKey: Map<number, number> };
  /** A key's group, or null. */
  groupOf(keyId: number): number | null;
}

interface CalendarSpend {
  readonly kind: "day" | "week" | "month";
  zone: string;
  start: number;
  end: number;
  total: number;
  byKey: Map<number, number>;
  byGroup: Map<number, number>;
}

interface Rolling {
  readonly ring: RollingSpend;
  readonly budget: PeriodBudgetRecord;
}

/** The spend every configured budget is measured against. */
export class PeriodSpend {
  readonly #source: PeriodSpendSource;
  readonly #windows = new PeriodWindows();
  readonly #calendars = new Map<"day" | "week" | "month", CalendarSpend>();
  #rolling = new Map<number, Rolling>();

  constructor(source: PeriodSpendSource) {
    this.#source = source;
  }

  /**
   * The budgets changed (or group membership did): calendar kinds in use are kept, rolling rings exist for
   * exactly the rolling budgets, and group totals are summed again from the keys'.
   */
  configure(budgets: readonly PeriodBudgetRecord[], now: number, zone: string): void {
    const rolling = new Map<number, Rolling>();
    for (const budget of budgets) {
      if (budget.period !== "rolling" || budget.rollingMs === null) continue;
      const old = this.#rolling.get(budget.id);
      if (old !== undefined && old.ring.durationMs === budget.rollingMs && sameScope(old.budget, budget)) {
        rolling.set(budget.id, { ring: old.ring, budget });
        continue;
      }
      const ring = new RollingSpend(budget.rollingMs);
      ring.add(this.#scopeSpend(budget, this.#source.spendSince(now - budget.rollingMs)), now);
      rolling.set(budget.id, { ring, budget });
    }
    this.#rolling = rolling;
    for (const calendar of this.#calendars.values()) calendar.byGroup = this.#groupTotals(calendar.byKey);
    // Calendar kinds in use are read now, so every cost recorded from here on is added to them.
    for (const budget of budgets) if (budget.period !== "rolling") this.#calendar(budget.period, now, zone);
  }

  /** Adds a recorded cost (this process's or another's) at its instant. */
  add(keyId: number | null, cost: number, at: number): void {
    if (!(cost > 0)) return;
    const groupId = keyId === null ? null : this.#source.groupOf(keyId);
    for (const calendar of this.#calendars.values()) {
      if (at < calendar.start || at >= calendar.end) continue;
      calendar.total += cost;
      if (keyId !== null) calendar.byKey.set(keyId, (calendar.byKey.get(keyId) ?? 0) + cost);
      if (groupId !== null) calendar.byGroup.set(groupId, (calendar.byGroup.get(groupId) ?? 0) + cost);
    }
    for (const { ring, budget } of this.#rolling.values()) {
      if (applies(budget, keyId, groupId)) ring.add(cost, at);
    }
  }

  /** What one budget counts as spent at `now` in `zone` (the check's fast path: no status object). */
  spent(budget: PeriodBudgetRecord, now: number, zone: string): number {
    if (budget.period === "rolling") return this.#rolling.get(budget.id)?.ring.total(now) ?? 0;
    const calendar = this.#calendar(budget.period, now, zone);
    const scope = budget.scope;
    return scope.kind === "global"
      ? calendar.total
      : scope.kind === "key"
      ? calendar.byKey.get(scope.keyId) ?? 0
      : calendar.byGroup.get(scope.groupId) ?? 0;
  }

  /** Where one budget stands at `now` in `zone`. */
  status(budget: PeriodBudgetRecord, now: number, zone: string): PeriodBudgetStatus {
    const period: BudgetPeriod = budgetPeriod(budget.period, budget.rollingMs);
    const limit = { period, limit: budget.limit, warnPct: budget.warnPct };
    if (period.kind === "rolling") {
      const rolling = this.#rolling.get(budget.id);
      const window = this.#windows.at(period, now, zone);
      if (rolling === undefined) return periodStatus(limit, 0, window, now, now);
      const spent = rolling.ring.total(now);
      return periodStatus(limit, spent, window, now, rolling.ring.resetAt(budget.limit, now));
    }
    const calendar = this.#calendar(period.kind, now, zone);
    return periodStatus(limit, this.spent(budget, now, zone), calendar, now);
  }

  /** The current window of a calendar kind, read from the usage table when it starts or the zone changes. */
  #calendar(kind: "day" | "week" | "month", now: number, zone: string): CalendarSpend {
    const known = this.#calendars.get(kind);
    // Inside the window it was read for: two comparisons, no zone arithmetic.
    if (known !== undefined && known.zone === zone && now >= known.start && now < known.end) return known;
    const window = this.#windows.at(CALENDAR[kind], now, zone);
    const spend = this.#source.spendSince(window.start);
    const calendar: CalendarSpend = {
      kind,
      zone,
      start: window.start,
      end: window.end,
      total: spend.total,
      byKey: spend.byKey,
      byGroup: this.#groupTotals(spend.byKey),
    };
    this.#calendars.set(kind, calendar);
    return calendar;
  }

  #groupTotals(byKey: ReadonlyMap<number, number>): Map<number, number> {
    const byGroup = new Map<number, number>();
    for (const [keyId, cost] of byKey) {
      const groupId = this.#source.groupOf(keyId);
      if (groupId !== null) byGroup.set(groupId, (byGroup.get(groupId) ?? 0) + cost);
    }
    return byGroup;
  }

  #scopeSpend(budget: PeriodBudgetRecord, spend: { total: number; byKey: Map<number, number> }): number {
    switch (budget.scope.kind) {
      case "global":
        return spend.total;
      case "key":
        return spend.byKey.get(budget.scope.keyId) ?? 0;
      case "group":
        return this.#groupTotals(spend.byKey).get(budget.scope.groupId) ?? 0;
    }
  }
}

const CALENDAR = { day: { kind: "day" }, week: { kind: "week" }, month: { kind: "month" } } as const;

/** Whether a cost of `keyId` (in `groupId`) counts against `budget`. */
export function applies(budget: PeriodBudgetRecord, keyId: number | null, groupId: number | null): boolean {
  switch (budget.scope.kind) {
    case "global":
      return true;
    case "key":
      return budget.scope.keyId === keyId;
    case "group":
      return budget.scope.groupId === groupId;
  }
}

function sameScope(a: PeriodBudgetRecord, b: PeriodBudgetRecord): boolean {
  return a.scope.kind === b.scope.kind &&
    (a.scope.kind !== "key" || b.scope.kind !== "key" || a.scope.keyId === b.scope.keyId) &&
    (a.scope.kind !== "group" || b.scope.kind !== "group" || a.scope.groupId === b.scope.groupId);
}
