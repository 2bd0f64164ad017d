/**
 * Budgets over any period: the calendar day (the spec's), the week (Monday to Monday), the calendar month,
 * all in the reporting time zone, and a rolling window of any length. Pure: the instant and the zone are
 * passed in. Calendar boundaries come from local_day.ts, so they are DST-safe (a day is 23 or 25 hours long
 * when the clocks change; a boundary that falls in a skipped hour is the first instant that exists).
 */
import { type BudgetState, budgetStatus, DEFAULT_WARN_PCT } from "./budget.ts";
import { localDayNumber, startOfLocalDay } from "./local_day.ts";

/** A budget's period. Weeks start on Monday (ISO 8601); months are calendar months. */
export type BudgetPeriod =
  | { readonly kind: "day" }
  | { readonly kind: "week" }
  | { readonly kind: "month" }
  | { readonly kind: "rolling"; readonly durationMs: number };

/** The period kinds, as stored and as the 429 body's `period` field names them. */
export type BudgetPeriodName = BudgetPeriod["kind"];

/** The span a budget counts spend over at one instant: [start, end). */
export interface PeriodWindow {
  readonly start: number;
  /**
   * Calendar periods: when the next period starts (spend drops to zero then). Rolling: the instant itself
   * (the window ends now; when spend falls under a limit depends on when it was spent: RollingSpend.resetAt).
   */
  readonly end: number;
}

const DAY_MS = 86_400_000;

/** A period from its stored form (`rollingMs` is used only by "rolling"); throws on a rolling without length. */
export function budgetPeriod(kind: BudgetPeriodName, rollingMs: number | null = null): BudgetPeriod {
  switch (kind) {
    case "day":
    case "week":
    case "month":
      return { kind };
    case "rolling":
      if (rollingMs === null || !(rollingMs > 0)) throw new Error("a rolling budget needs a length > 0");
      return { kind, durationMs: rollingMs };
  }
}

/** The window containing `nowMs` in `timeZone` ("" is the server's zone). */
export function periodWindow(period: BudgetPeriod, nowMs: number, timeZone: string): PeriodWindow {
  switch (period.kind) {
    case "rolling":
      return { start: nowMs - period.durationMs, end: nowMs };
    case "day": {
      const day = localDayNumber(nowMs, timeZone);
      return { start: startOfLocalDay(day, timeZone), end: startOfLocalDay(day + 1, timeZone) };
    }
    case "week": {
      const day = localDayNumber(nowMs, timeZone);
      // Day 0 (1970-01-01) was a Thursday: (day + 3) mod 7 counts days since Monday.
      const monday = day - (((day + 3) % 7) + 7) % 7;
      return { start: startOfLocalDay(monday, timeZone), end: startOfLocalDay(monday + 7, timeZone) };
    }
    case "month": {
      const date = new Date(localDayNumber(nowMs, timeZone) * DAY_MS);
      const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
      const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
      return { start: startOfLocalDay(first, timeZone), end: startOfLocalDay(next, timeZone) };
    }
  }
}

/**
 * Calendar windows for the hot path: the zone arithmetic (Intl, ~µs) runs only when an instant leaves the
 * cached window or the zone changes, so a budget check reads two numbers. Rolling windows need no cache.
 */
export class PeriodWindows {
  readonly #cache = new Map<BudgetPeriodName, { zone: string; window: PeriodWindow }>();

  /** The window of `period` at `nowMs` (cached per calendar kind). */
  at(period: BudgetPeriod, nowMs: number, timeZone: string): PeriodWindow {
    if (period.kind === "rolling") return periodWindow(period, nowMs, timeZone);
    const hit = this.#cache.get(period.kind);
    if (hit && hit.zone === timeZone && nowMs >= hit.window.start && nowMs < hit.window.end) {
      return hit.window;
    }
    const window = periodWindow(period, nowMs, timeZone);
    this.#cache.set(period.kind, { zone: timeZone, window });
    return window;
  }
}

/** One budget to check: its period, its limit (USD per period) and warn threshold (percent). */
export interface PeriodBudget {
  readonly period: BudgetPeriod;
  readonly limit: number;
  readonly warnPct?: number;
}

/** Where one budget stands at one instant. */
export interface PeriodBudgetStatus {
  readonly status: BudgetState;
  readonly period: BudgetPeriod;
  readonly limit: number;
  readonly spent: number;
  /** Spend as a percentage of the limit (100 when the limit is zero or negative). */
  readonly percentage: number;
  /** USD left in this period, never negative. */
  readonly remaining: number;
  readonly windowStart: number;
  /**
   * When spend is next under the limit (epoch ms): the period's end for calendar periods; for a rolling
   * window, when enough of the spend has aged out (the instant itself while not exceeded).
   */
  readonly resetAt: number;
  /** Whole seconds until resetAt, at least 1 (Retry-After). */
  readonly retryAfterSeconds: number;
}

/**
 * Classifies one budget exactly as the daily check always has (budget.ts: exceeded at or above 100 %,
 * warning at or above warnPct, a limit of zero or less always exceeded). `resetAt` defaults to the
 * window's end (calendar periods); rolling windows pass RollingSpend.resetAt.
 */
export function periodStatus(
  budget: PeriodBudget,
  spent: number,
  window: PeriodWindow,
  nowMs: number,
  resetAt: number = window.end,
): PeriodBudgetStatus {
  const base = budgetStatus({
    dailyLimit: budget.limit,
    warnPct: budget.warnPct ?? DEFAULT_WARN_PCT,
    spentToday: spent,
  });
  return {
    status: base.status,
    period: budget.period,
    limit: budget.limit,
    spent: Math.max(spent, 0),
    percentage: base.percentage,
    remaining: base.remaining,
    windowStart: window.start,
    resetAt,
    retryAfterSeconds: Math.max(Math.ceil((resetAt - nowMs) / 1000), 1),
  };
}

/**
 * The verdict over several budgets (a key's, its group's, the global ones, each over its periods): the
 * worst state wins; among exceeded budgets the one that resets last, since a request needs every one of
 * them under its limit again. Null when there is nothing to check.
 */
export function worstBudget(statuses: readonly PeriodBudgetStatus[]): PeriodBudgetStatus | null {
  let worst: PeriodBudgetStatus | null = null;
  for (const s of statuses) {
    if (worst === null || rank(s.status) > rank(worst.status)) worst = s;
    else if (s.status === "exceeded" && worst.status === "exceeded" && s.resetAt > worst.resetAt) worst = s;
  }
  return worst;
}

function rank(state: BudgetState): number {
  return state === "exceeded" ? 2 : state === "warning" ? 1 : 0;
}

/** Whose budget: a key's, a key group's, or the gateway's. */
export type BudgetOwner = "key" | "group" | "global";

/** A 429 for an exceeded budget, in neutral terms: the message, the fixed JSON body, Retry-After. */
export interface BudgetRejection {
  readonly message: string;
  readonly body: { readonly error: Readonly<Record<string, string | number>> };
  readonly retryAfterSeconds: number;
}

/**
 * The 429 of an exceeded budget. For the daily period the spec fixes the body
 * (`{"error": {"message", "type": "budget_exceeded", "today_spend", "daily_limit"}}`) and it is exactly what
 * BudgetGuard has always sent; other periods keep that envelope and type and say which period:
 * `{"error": {"message", "type": "budget_exceeded", "period", "period_spend", "period_limit", "resets_at"}}`
 * (`window_seconds` too for a rolling window).
 */
export function budgetRejection(
  s: PeriodBudgetStatus,
  owner: BudgetOwner,
  timeZone: string,
): BudgetRejection {
  const whose = owner === "global" ? "Global" : owner === "key" ? "This API key's" : "This API key's group's";
  const limit = `$${s.limit.toFixed(2)}`;
  const spent = `$${s.spent.toFixed(4)}`;
  if (s.period.kind === "day") {
    const message = `${whose} daily budget of ${limit} is exceeded (spent ${spent} today); it resets at ` +
      `midnight (${timeZone})`;
    return {
      message,
      body: {
        error: { message, type: "budget_exceeded", today_spend: round(s.spent), daily_limit: s.limit },
      },
      retryAfterSeconds: s.retryAfterSeconds,
    };
  }
  const resetsAt = new Date(s.resetAt).toISOString();
  const span = s.period.kind === "rolling"
    ? `budget of ${limit} per ${
      describeDuration(s.period.durationMs)
    } is exceeded (spent ${spent} in that window)`
    : `${
      s.period.kind === "week" ? "weekly" : "monthly"
    } budget of ${limit} is exceeded (spent ${spent} this ` +
      `${s.period.kind})`;
  const message = `${whose} ${span}; it resets at ${resetsAt}` +
    (s.period.kind === "rolling" ? "" : ` (${timeZone})`);
  const error: Record<string, string | number> = {
    message,
    type: "budget_exceeded",
    period: s.period.kind,
    period_spend: round(s.spent),
    period_limit: s.limit,
    resets_at: resetsAt,
  };
  if (s.period.kind === "rolling") error.window_seconds = Math.round(s.period.durationMs / 1000);
  return { message, body: { error }, retryAfterSeconds: s.retryAfterSeconds };
}

/**
 * The start of the window an alert belongs to, so that each level alerts once per window: the calendar
 * period's start, or for a rolling window the instant rounded down to a multiple of its length.
 */
export function alertWindowStart(s: PeriodBudgetStatus, nowMs: number): number {
  return s.period.kind === "rolling"
    ? Math.floor(nowMs / s.period.durationMs) * s.period.durationMs
    : s.windowStart;
}

/** "5 hours", "90 minutes", "2 days", "45 seconds": the largest whole unit. */
export function describeDuration(ms: number): string {
  const units: [number, string][] = [[DAY_MS, "day"], [3_600_000, "hour"], [60_000, "minute"], [
    1000,
    "second",
  ]];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? "" : "s"}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/**
 * Spend over a rolling window, in memory: a ring of equal buckets (default 300 per window: one minute for
 * 5 hours). Adding and reading are O(1) amortised. Spend leaves the window at the end of its bucket plus the
 * window length, so up to one bucket late, never early: a rolling budget may hold a little longer than its
 * window, never let more through.
 */
export class RollingSpend {
  readonly durationMs: number;
  readonly bucketMs: number;
  readonly #buckets: Float64Array;
  /** The bucket number (time / bucketMs) of the newest bucket written. */
  #newest = -Infinity;
  #total = 0;

  constructor(durationMs: number, buckets = 300) {
    this.durationMs = durationMs;
    this.bucketMs = Math.max(Math.ceil(durationMs / buckets), 1);
    this.#buckets = new Float64Array(Math.ceil(durationMs / this.bucketMs) + 1);
  }

  /** Adds spend at an instant (an instant older than the window is ignored). */
  add(cost: number, atMs: number): void {
    if (!(cost > 0)) return;
    const bucket = Math.floor(atMs / this.bucketMs);
    this.#advance(Math.max(bucket, this.#newest));
    if (bucket <= this.#newest - this.#buckets.length) return;
    this.#buckets[mod(bucket, this.#buckets.length)] += cost;
    this.#total += cost;
  }

  /** Spend in the window ending at `nowMs`. */
  total(nowMs: number): number {
    this.#advance(Math.floor(nowMs / this.bucketMs));
    return Math.max(this.#total, 0);
  }

  /** When spend in the window is next under `limit` (nowMs when it already is). */
  resetAt(limit: number, nowMs: number): number {
    const total = this.total(nowMs);
    if (total < limit) return nowMs;
    const n = this.#buckets.length;
    let left = total;
    for (let b = this.#newest - n + 1; b <= this.#newest; b++) {
      left -= this.#buckets[mod(b, n)];
      // Bucket b is counted while the newest bucket is at most b + n - 1: it leaves when bucket b + n begins.
      if (left < limit) return Math.max((b + n) * this.bucketMs, nowMs + 1);
    }
    return nowMs + this.durationMs;
  }

  #advance(bucket: number): void {
    if (bucket <= this.#newest) return;
    const n = this.#buckets.length;
    if (!Number.isFinite(this.#newest) || bucket - this.#newest >= n) {
      this.#buckets.fill(0);
      this.#total = 0;
    } else {
      for (let b = this.#newest + 1; b <= bucket; b++) {
        const i = mod(b, n);
        this.#total -= this.#buckets[i];
        this.#buckets[i] = 0;
      }
    }
    this.#newest = bucket;
  }
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
