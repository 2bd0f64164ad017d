import { dayStartMs } from "../../accounting/mod.ts";
import type { DashboardContext } from "../context.ts";
import {
  type DailyTotals,
  DAY_MS,
  type GroupTotals,
  type HourlyTotals,
  type UsageTotals,
} from "../../storage/mod.ts";
import type { BreakdownRow, DailyPoint, TotalsView } from "../contract/usage.ts";

/** What every section builder gets. */
export interface SectionInput {
  readonly gateway: DashboardContext;
  readonly query: URLSearchParams;
  /** The server's public origin as the browser sees it (for Tools and base URLs). */
  readonly origin: string;
  readonly inflight: number;
  /** The gateway version (settings screen, meta). */
  readonly version: string;
}

/** The UTC day number of an instant. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The first UTC day of a window of `days` days ending today. */
export function windowStart(now: number, days: number): number {
  return utcDay(now) - (days - 1);
}

/** The start of today in the reporting time zone. */
export function todayStart(gateway: DashboardContext): number {
  return dayStartMs(gateway.now(), gateway.budgetZone());
}

/** Totals in the API's snake_case shape. */
export function totalsView(t: UsageTotals): TotalsView {
  return {
    requests: t.requests,
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    cache_read_tokens: t.cacheReadTokens,
    cache_creation_tokens: t.cacheCreationTokens,
    cost: round(t.cost, 6),
  };
}

/** Success share of requests in percent (100 when there were none). */
export function successPct(t: UsageTotals): number {
  return t.requests === 0 ? 100 : round((t.okRequests * 100) / t.requests, 2);
}

/** Every day of a window, zeros included, oldest first. */
export function dailySeries(rows: readonly DailyTotals[], fromDay: number, toDay: number): DailyPoint[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DailyPoint[] = [];
  for (let day = fromDay; day <= toDay; day++) {
    out.push(seriesPoint(new Date(day * DAY_MS).toISOString().slice(0, 10), byDay.get(day)));
  }
  return out;
}

/** One bucket of a chart series: its totals, or zeros when it had no rows. */
function seriesPoint(
  date: string,
  r: Pick<DailyTotals, "requests" | "inputTokens" | "outputTokens" | "cost"> | undefined,
): DailyPoint {
  return {
    date,
    requests: r?.requests ?? 0,
    input_tokens: r?.inputTokens ?? 0,
    output_tokens: r?.outputTokens ?? 0,
    tokens: (r?.inputTokens ?? 0) + (r?.outputTokens ?? 0),
    cost: round(r?.cost ?? 0, 6),
  };
}

/** Hours in ms: the bucket of short analytics windows. */
const HOUR_MS = 3_600_000;

/** One point per UTC hour from `fromHour` to `toHour` (hours since the epoch), zero where no rows; `date` is the hour's ISO start. */
export function hourlySeries(rows: readonly HourlyTotals[], fromHour: number, toHour: number): DailyPoint[] {
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const out: DailyPoint[] = [];
  for (let hour = fromHour; hour <= toHour; hour++) {
    out.push(seriesPoint(new Date(hour * HOUR_MS).toISOString().slice(0, 16), byHour.get(hour)));
  }
  return out;
}

/** The hour (since the epoch) that holds `ms`. */
export function utcHour(ms: number): number {
  return Math.floor(ms / HOUR_MS);
}

/** A breakdown row in the API's shape. */
export function breakdownView(g: GroupTotals): BreakdownRow {
  return {
    key: g.key,
    ...totalsView(g),
    success_pct: successPct(g),
    // Cache reads are a subset of the input total (spec usage invariant), so this is a share of input.
    cache_read_pct: g.inputTokens > 0 ? round((g.cacheReadTokens * 100) / g.inputTokens, 1) : 0,
  };
}

/** Reads an integer query parameter from an allowed set or range, else the fallback. */
export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  allowed: { min: number; max: number } | readonly number[],
): number {
  const n = Number(query.get(name));
  if (!query.has(name) || !Number.isInteger(n)) return fallback;
  if (Array.isArray(allowed)) return allowed.includes(n) ? n : fallback;
  const range = allowed as { min: number; max: number };
  return Math.min(Math.max(n, range.min), range.max);
}

/** Rounds for display without float noise. */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
