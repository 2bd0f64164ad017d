import type { UsageKind } from "../../accounting/usage_kind.ts";
/** Dashboard contract, observing side: overview, usage, analytics, leaderboard, live events. */
import type { BudgetView } from "../../features/budgets/contract.ts";

/** One dashboard alert; every state response carries the current list. */
export interface Alert {
  readonly id: string;
  readonly severity: "critical" | "warning" | "info";
  readonly title: string;
  readonly detail: string;
  readonly href: string;
}

/** Request, token and cost sums over some period. */
export interface TotalsView {
  readonly requests: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_read_tokens: number;
  readonly cache_creation_tokens: number;
  readonly cost: number;
}

/** One day of a daily series (ISO date, UTC). */
export interface DailyPoint {
  readonly date: string;
  readonly requests: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly tokens: number;
  readonly cost: number;
}

/** One row of a breakdown by model, provider, account or client key. */
export interface BreakdownRow extends TotalsView {
  readonly key: string;
  readonly success_pct: number;
  /** Share of input tokens read from the upstream's prompt cache, 0..100 (per account: affinity at work). */
  readonly cache_read_pct: number;
}

/** A model used without a price. */
export interface UnpricedModel {
  readonly model: string;
  readonly requests: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
}

/** Overview: totals, today, counts, global budget, setup checklist. */
export interface OverviewSection {
  readonly totals: TotalsView;
  readonly today: TotalsView;
  readonly provider_count: number;
  readonly provider_total: number;
  readonly combo_count: number;
  readonly key_count: number;
  readonly static_key_count: number;
  readonly global_budget: BudgetView | null;
  readonly inflight: number;
  readonly cooldown_count: number;
  readonly base_url: string;
  readonly setup: {
    readonly has_providers: boolean;
    readonly has_keys: boolean;
    readonly has_requests: boolean;
  };
  readonly top_models: readonly BreakdownRow[];
  readonly daily: readonly DailyPoint[];
}

/** One event of the live usage stream (also in the usage section's `recent`). */
export interface LiveEvent {
  readonly seq: number;
  readonly phase: "start" | "finish" | "usage";
  readonly request_id: number | null;
  readonly ts: number;
  readonly model: string;
  readonly provider_id: string;
  readonly user: string;
  readonly client_format: string;
  readonly status: number;
  readonly latency_ms: number;
  readonly streamed: boolean;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost: number;
  readonly error: string;
}

/** The `data` of each event name on the live stream (`GET /dashboard/api/live`, SSE). */
export interface LiveMessages {
  readonly snapshot: { readonly inflight: number; readonly recent: readonly LiveEvent[] };
  readonly request: { readonly events: readonly LiveEvent[]; readonly dropped: number };
  readonly inflight: { readonly count: number };
}

/** Usage: live count and recent events, today, daily history, models. */
export interface UsageSection {
  readonly inflight: number;
  readonly recent: readonly LiveEvent[];
  readonly today: TotalsView;
  readonly daily: readonly DailyPoint[];
  readonly by_model: readonly BreakdownRow[];
  readonly live_url: string;
}

/** The breakdown dimensions of Analytics. */
export type UsageDimension = "model" | "provider" | "account" | "client_key" | "group" | "kind";

/** The kinds of work usage is recorded as (Analytics' `kind` filter and dimension). */
export type { UsageKind } from "../../accounting/usage_kind.ts";

/** Analytics: spend over a window, broken down by one dimension. */
export interface AnalyticsSection {
  readonly days: number;
  readonly dimension: UsageDimension;
  /**
   * The kind of work the summary, series and breakdown are narrowed to (`?kind=`), or null for all. Latency,
   * time to first token, unpriced models and the key drill-down are of every kind.
   */
  readonly kind: UsageKind | null;
  readonly summary: TotalsView & { readonly success_rate: number };
  readonly daily: readonly DailyPoint[];
  /** The one-day window: the last 24 UTC hours (`date` is each hour's ISO start); null for longer windows. */
  readonly hourly: readonly DailyPoint[] | null;
  readonly breakdown: readonly BreakdownRow[];
  readonly success: {
    readonly success_2xx: number;
    readonly client_4xx: number;
    readonly server_5xx: number;
    readonly total: number;
  };
  readonly unpriced_models: readonly UnpricedModel[];
  /** The drill-down of the key named by `?key=` (null without one). */
  readonly key_detail: KeyDrillDown | null;
  /** p50 / p95 latency of successful requests in the window, per model and per provider. */
  readonly latency: {
    readonly by_model: readonly LatencyRow[];
    readonly by_provider: readonly LatencyRow[];
  };
  /** p50 / p95 time to first token (first byte of the answer) of successful requests, same groups. */
  readonly ttft: {
    readonly by_model: readonly LatencyRow[];
    readonly by_provider: readonly LatencyRow[];
  };
}

/** One client key's drill-down (Analytics `?key=<label>`). */
export interface KeyDrillDown {
  readonly key: string;
  readonly summary: TotalsView & { readonly errors: number };
  readonly daily: readonly DailyPoint[];
  readonly models: readonly BreakdownRow[];
  /** Requests per model per day, days with traffic only. */
  readonly model_daily: readonly {
    readonly date: string;
    readonly model: string;
    readonly requests: number;
  }[];
}

/** Nearest-rank latency (or time to first token) percentiles of one model or provider. */
export interface LatencyRow {
  readonly key: string;
  readonly requests: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
}

/** How the leaderboard ranks clients. */
export type LeaderboardSort = "tokens" | "cost" | "requests";

/** One ranked client (a DB key, a static key label, or an idle key). */
export interface LeaderboardRow {
  readonly rank: number;
  readonly key_id: number | null;
  readonly key_name: string;
  readonly requests: number;
  readonly tokens: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost: number;
  readonly success_pct: number;
}

/** Leaderboard: clients ranked by tokens, cost or requests, then keys without usage. */
export interface LeaderboardSection {
  readonly days: number;
  readonly sort: LeaderboardSort;
  /** Rows per key, or per key group (then `key_name` is the group's name and `key_id` null). */
  readonly by: "key" | "group";
  readonly rows: readonly LeaderboardRow[];
}
