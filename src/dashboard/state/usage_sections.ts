import {
  type ClientTotals,
  DAY_MS,
  type KeyUsage,
  type LatencyPercentiles,
  type UsageTotals,
} from "../../storage/mod.ts";
import type { DashboardContext } from "../context.ts";
import type {
  AnalyticsSection,
  KeyDrillDown,
  LatencyRow,
  LeaderboardRow,
  LeaderboardSection,
  LiveEvent,
  OverviewSection,
  UsageDimension,
  UsageSection,
} from "../contract/usage.ts";
import { budgetView } from "../../features/budgets/state.ts";
import { isUsageKind } from "../../accounting/mod.ts";
import { round } from "./common.ts";
import { unpricedModels } from "../../features/pricing/state.ts";
import {
  breakdownView,
  dailySeries,
  hourlySeries,
  intParam,
  type SectionInput,
  successPct,
  todayStart,
  totalsView,
  utcDay,
  utcHour,
  windowStart,
} from "./common.ts";

const WINDOWS = [1, 7, 30, 90, 365] as const;
const DIMENSIONS: readonly UsageDimension[] = ["model", "provider", "account", "client_key", "group", "kind"];
/** The leaderboard ranks keys, or their groups. */
const RANK_BY = ["key", "group"] as const;
/** The group name usage without a group is shown under. */
export const NO_GROUP = "(no group)";
const SORTS = ["tokens", "cost", "requests"] as const;

/** Overview: totals, today, counts, global budget, setup checklist. */
export function overviewSection({ gateway, origin, inflight }: SectionInput): OverviewSection {
  const stats = gateway.reads.usageStats;
  const now = gateway.now();
  const totals = stats.totals(null);
  const global = gateway.state.budgets.find((b) => b.keyId === null);
  const activeKeys = gateway.state.keys.filter((k) => k.status === "active").length;
  return {
    totals: totalsView(totals),
    today: totalsView(stats.totalsSince(todayStart(gateway))),
    provider_count: gateway.state.providers.filter((p) => p.enabled).length,
    provider_total: gateway.state.providers.length,
    combo_count: gateway.state.combos.length,
    key_count: activeKeys,
    static_key_count: gateway.state.config.apiKeys.length,
    global_budget: global ? budgetView(global, gateway) : null,
    inflight,
    cooldown_count: gateway.cooldowns.active(now).length,
    base_url: origin,
    setup: {
      has_providers: gateway.state.providers.length > 0,
      has_keys: activeKeys > 0 || gateway.state.config.apiKeys.length > 0,
      has_requests: totals.requests > 0,
    },
    top_models: stats.breakdown(windowStart(now, 30), "model", 10).map(breakdownView),
    daily: dailySeries(stats.daily(windowStart(now, 14)), windowStart(now, 14), utcDay(now)),
  };
}

/** Usage: live count and recent events, today, daily history, models. */
export function usageSection(
  { gateway, inflight }: SectionInput,
  recent: readonly LiveEvent[],
): UsageSection {
  const stats = gateway.reads.usageStats;
  const now = gateway.now();
  return {
    inflight,
    recent,
    today: totalsView(stats.totalsSince(todayStart(gateway))),
    daily: dailySeries(stats.daily(windowStart(now, 30)), windowStart(now, 30), utcDay(now)),
    by_model: stats.breakdown(windowStart(now, 30), "model", 50).map(breakdownView),
    live_url: "/dashboard/api/live",
  };
}

/** Analytics: spend over a window, broken down by one dimension. */
export function analyticsSection({ gateway, query }: SectionInput): AnalyticsSection {
  const days = intParam(query, "days", 30, WINDOWS);
  const dimensionRaw = query.get("dimension") ?? "model";
  const dimension = (DIMENSIONS as readonly string[]).includes(dimensionRaw)
    ? dimensionRaw as UsageDimension
    : "model";
  const kindRaw = query.get("kind") ?? "";
  const kind = isUsageKind(kindRaw) ? kindRaw : null;
  const stats = gateway.reads.usageStats;
  const now = gateway.now();
  const from = windowStart(now, days);
  const totals = stats.totals(from, kind);
  const keyParam = (query.get("key") ?? "").trim().slice(0, 200);
  return {
    days,
    dimension,
    kind,
    summary: { ...totalsView(totals), success_rate: successPct(totals) },
    daily: dailySeries(stats.daily(from, kind), from, utcDay(now)),
    // A one-day window is one daily bar: its chart has the last 24 hours instead.
    hourly: days === 1
      ? hourlySeries(stats.hourly((utcHour(now) - 23) * 3_600_000, kind), utcHour(now) - 23, utcHour(now))
      : null,
    breakdown: dimension === "group"
      ? groupTotals(stats.byClient(from, kind), gateway).map(breakdownView)
      : stats.breakdown(from, dimension, 200, kind).map(breakdownView),
    success: {
      success_2xx: totals.okRequests,
      client_4xx: totals.clientErrors,
      server_5xx: totals.serverErrors,
      total: totals.requests,
    },
    unpriced_models: unpricedModels(gateway, from).map((u) => ({
      model: u.model,
      requests: u.requests,
      input_tokens: u.inputTokens,
      output_tokens: u.outputTokens,
    })),
    key_detail: keyParam ? keyDrillDown(stats.keyUsage(from, keyParam), keyParam, from, utcDay(now)) : null,
    latency: {
      by_model: latencyRows(stats.latencyPercentiles(from * DAY_MS, "model", 50)),
      by_provider: latencyRows(stats.latencyPercentiles(from * DAY_MS, "provider", 50)),
    },
    ttft: {
      by_model: latencyRows(gateway.reads.requests.ttftPercentiles(from * DAY_MS, "model", 50)),
      by_provider: latencyRows(gateway.reads.requests.ttftPercentiles(from * DAY_MS, "provider", 50)),
    },
  };
}

/** Leaderboard: clients ranked by tokens, cost or requests, then keys without usage. */
export function leaderboardSection({ gateway, query }: SectionInput): LeaderboardSection {
  const days = intParam(query, "days", 30, WINDOWS);
  const sortRaw = query.get("sort") ?? "tokens";
  const sort = (SORTS as readonly string[]).includes(sortRaw) ? sortRaw as typeof SORTS[number] : "tokens";
  const byRaw = query.get("by") ?? "key";
  const by = (RANK_BY as readonly string[]).includes(byRaw) ? byRaw as typeof RANK_BY[number] : "key";
  const perKey = gateway.reads.usageStats.byClient(windowStart(gateway.now(), days));
  // Ranked by group: one row per group (by the keys' current membership), named after it.
  const clients: ClientTotals[] = by === "group"
    ? groupTotals(perKey, gateway).map((g) => ({ ...g, keyId: 0, label: g.key }))
    : perKey;
  const names = new Map(gateway.state.keys.map((k) => [k.id, k.name]));
  const metric = (c: (typeof clients)[number]) =>
    sort === "cost" ? c.cost : sort === "requests" ? c.requests : c.inputTokens + c.outputTokens;
  const ranked = clients.sort((a, b) => metric(b) - metric(a)).slice(0, 50);
  const rows = ranked.map((c, i): LeaderboardRow => ({
    rank: i + 1,
    key_id: c.keyId === 0 ? null : c.keyId,
    key_name: c.keyId === 0 ? c.label : names.get(c.keyId) ?? c.label,
    requests: c.requests,
    tokens: c.inputTokens + c.outputTokens,
    input_tokens: c.inputTokens,
    output_tokens: c.outputTokens,
    cost: round(c.cost, 6),
    success_pct: successPct(c),
  }));
  if (by === "group") return { days, sort, by, rows };
  const used = new Set(clients.map((c) => c.keyId));
  const idle = gateway.state.keys.filter((k) => k.status === "active" && !used.has(k.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const key of idle) {
    rows.push({
      rank: rows.length + 1,
      key_id: key.id,
      key_name: key.name,
      requests: 0,
      tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost: 0,
      success_pct: 100,
    });
  }
  return { days, sort, by, rows };
}

/**
 * Usage per key group, by each key's current group (requests without a DB key or of a key in no group
 * count under NO_GROUP), by cost then requests.
 */
export function groupTotals(
  perKey: readonly ClientTotals[],
  gateway: DashboardContext,
): (UsageTotals & { key: string })[] {
  const groupOf = new Map(gateway.state.keys.map((k) => [k.id, k.groupId]));
  const names = new Map(gateway.state.groups.map((g) => [g.id, g.name]));
  const sums = new Map<string, UsageTotals & { key: string }>();
  for (const c of perKey) {
    const groupId = c.keyId === 0 ? null : groupOf.get(c.keyId) ?? null;
    const key = groupId === null ? NO_GROUP : names.get(groupId) ?? NO_GROUP;
    const sum = sums.get(key) ?? {
      key,
      requests: 0,
      okRequests: 0,
      clientErrors: 0,
      serverErrors: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
      cost: 0,
    };
    sums.set(key, {
      key,
      requests: sum.requests + c.requests,
      okRequests: sum.okRequests + c.okRequests,
      clientErrors: sum.clientErrors + c.clientErrors,
      serverErrors: sum.serverErrors + c.serverErrors,
      inputTokens: sum.inputTokens + c.inputTokens,
      outputTokens: sum.outputTokens + c.outputTokens,
      cacheReadTokens: sum.cacheReadTokens + c.cacheReadTokens,
      cacheCreationTokens: sum.cacheCreationTokens + c.cacheCreationTokens,
      cost: sum.cost + c.cost,
    });
  }
  return [...sums.values()].sort((a, b) => b.cost - a.cost || b.requests - a.requests);
}

function latencyRows(rows: readonly LatencyPercentiles[]): LatencyRow[] {
  return rows.map((r) => ({ key: r.key, requests: r.requests, p50_ms: r.p50Ms, p95_ms: r.p95Ms }));
}

function keyDrillDown(usage: KeyUsage, key: string, fromDay: number, toDay: number): KeyDrillDown {
  const sum = (f: (t: UsageTotals) => number) => usage.daily.reduce((n, d) => n + f(d), 0);
  const totals: UsageTotals = {
    requests: sum((t) => t.requests),
    okRequests: sum((t) => t.okRequests),
    clientErrors: sum((t) => t.clientErrors),
    serverErrors: sum((t) => t.serverErrors),
    inputTokens: sum((t) => t.inputTokens),
    outputTokens: sum((t) => t.outputTokens),
    cacheReadTokens: sum((t) => t.cacheReadTokens),
    cacheCreationTokens: sum((t) => t.cacheCreationTokens),
    cost: sum((t) => t.cost),
  };
  return {
    key,
    summary: { ...totalsView(totals), errors: totals.clientErrors + totals.serverErrors },
    daily: dailySeries(usage.daily, fromDay, toDay),
    models: usage.models.map(breakdownView),
    model_daily: usage.modelDaily.map((r) => ({
      date: new Date(r.day * DAY_MS).toISOString().slice(0, 10),
      model: r.model,
      requests: r.requests,
    })),
  };
}
