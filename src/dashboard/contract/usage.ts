/** Dashboard contract, observing side: overview, usage, analytics, leaderboard, logs (inventory: ./inventory.ts). */
import type { BudgetState } from "../../accounting/budget.ts";
import type { CooldownKind } from "../../routing/cooldown_policy.ts";

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

/** An account's active cooldown. */
export interface CooldownView {
  readonly remaining_s: number;
  /** Epoch ms when the cooldown ends. */
  readonly until: number;
  readonly kind: CooldownKind | null;
}

/** A budget with today's spend and status. */
export interface BudgetView {
  readonly id: number;
  readonly scope: "global" | number;
  readonly key_id: number | null;
  readonly scope_label: string;
  readonly daily_limit: number;
  readonly warn_pct: number;
  readonly spent_today: number;
  readonly percentage: number;
  readonly remaining: number;
  readonly status: BudgetState;
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
export type UsageDimension = "model" | "provider" | "account" | "client_key";

/** Analytics: spend over a window, broken down by one dimension. */
export interface AnalyticsSection {
  readonly days: number;
  readonly dimension: UsageDimension;
  readonly summary: TotalsView & { readonly success_rate: number };
  readonly daily: readonly DailyPoint[];
  readonly breakdown: readonly BreakdownRow[];
  readonly success: {
    readonly success_2xx: number;
    readonly client_4xx: number;
    readonly server_5xx: number;
    readonly total: number;
  };
  readonly unpriced_models: readonly UnpricedModel[];
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
  readonly rows: readonly LeaderboardRow[];
}

/** A request log row without bodies. */
export interface LogSummaryView {
  readonly id: number;
  readonly ts: number;
  readonly client_format: string;
  readonly model: string;
  readonly provider_id: string;
  readonly status: number;
  readonly latency_ms: number;
  readonly streamed: boolean;
  readonly user: string;
  readonly error: string;
  /** What translation lost for this request (`x-gateway-warnings` codes with the codecs' sentences). */
  readonly warnings: readonly LogWarningView[];
}

/** One warning of a logged request: a stable code (docs/warnings.md) and the codec's sentence. */
export interface LogWarningView {
  readonly code: string;
  readonly message: string;
  /** The field, part or value concerned, when the warning's producer gave one. */
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}

/** A request log row with bodies (`GET /dashboard/api/request-logs/{id}`). */
export interface LogDetailView extends LogSummaryView {
  readonly request_body: string;
  readonly response_body: string;
  readonly request_truncated: boolean;
  readonly response_truncated: boolean;
}

/** A page of request logs, newest first. */
export interface RequestLogsSection {
  readonly logging_enabled: boolean;
  readonly retention: number;
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly total_pages: number;
  readonly logs: readonly LogSummaryView[];
}
