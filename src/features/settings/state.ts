import { BUILTIN_PRICES } from "../../accounting/mod.ts";
import { API_TYPES, databaseLabel } from "../../config/mod.ts";
import {
  describeSetting,
  resolveSettings,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingKey,
} from "../../config/runtime_settings.ts";
import { presetFor } from "../../executors/presets.ts";
import { FREE_TIER_PRESETS } from "../../executors/free_tier_presets.ts";
import type {
  BudgetsSection,
  CombosSection,
  KeysSection,
  PricingSection,
  ProvidersSection,
  RoutingAccount,
  RoutingSection,
  SaversSection,
  SettingsSection,
  SettingView,
} from "../../dashboard/contract/mod.ts";
import { budgetView, comboView, keyView, priceView, providerView, round } from "../providers/state.ts";
import { type SectionInput, windowStart } from "../../dashboard/state/common.ts";
import { quotaView } from "../routing/quota_view.ts";
import { credentialState } from "../routing/credential_state.ts";

/** Providers with masked credentials, and the api_types the form offers. */
export function providersSection({ gateway }: SectionInput): ProvidersSection {
  return {
    providers: gateway.state.providers.map((p) => providerView(p, gateway)),
    api_types: API_TYPES.map((t) => ({
      api_type: t,
      format: presetFor(t).format,
    })),
    free_tier_presets: FREE_TIER_PRESETS.map((p) => ({
      id: p.id,
      label: p.label,
      base_url: p.baseUrl,
      models: p.models,
    })),
  };
}

/** Combos, the combo strategy, and the routable ids to pick members from. */
export function combosSection({ gateway }: SectionInput): CombosSection {
  const models = new Set<string>();
  for (const p of gateway.state.providers) {
    if (p.enabled) { for (const m of p.models) models.add(`${p.prefix}/${m}`); }
  }
  return {
    combos: gateway.state.combos.map((c) => comboView(c, gateway)),
    strategy: gateway.state.settings.combo_strategy,
    sticky_limit: gateway.state.settings.combo_sticky_limit,
    models: [...models].sort(),
  };
}

/**
 * Accounts per prefix in config order with readiness, cooldowns, headroom per limit window and held
 * prompt caches, and the try order the next request for each prefix would get.
 */
export function routingSection({ gateway }: SectionInput): RoutingSection {
  const settings = gateway.state.settings;
  const now = gateway.now();
  const cooldowns = gateway.cooldowns.active(now);
  const sessions = gateway.quota.cacheSessions(now);
  const byAccount = new Map(cooldowns.map((c) => [c.accountId, c]));
  const prefixes = new Map<string, RoutingAccount[]>();
  // Every account: provider rows and the inventory keys they expand into (their own cooldowns and quota).
  for (const p of gateway.state.accounts) {
    const accounts = prefixes.get(p.prefix) ?? [];
    const cooling = settings.server_cooldowns_enabled ? byAccount.get(p.id) : undefined;
    const credential = credentialState(p, gateway);
    accounts.push({
      order: accounts.length + 1,
      id: p.id,
      api_type: p.apiType,
      enabled: p.enabled,
      // An account whose credential needs a new sign-in can only fail: it is not counted as ready.
      ready: p.enabled && cooling === undefined && credential !== "needs_sign_in",
      cooldown: cooling
        ? { remaining_s: cooling.remainingSeconds, until: cooling.untilMs, kind: cooling.kind }
        : null,
      quota: quotaView(gateway.quota.headroom(p.id, now)),
      cache_sessions: sessions.get(p.id) ?? 0,
      credential_state: credential,
    });
    prefixes.set(p.prefix, accounts);
  }
  return {
    cooldowns_enabled: settings.server_cooldowns_enabled,
    combo_strategy: settings.combo_strategy,
    account_strategy: settings.server_account_strategy,
    prefixes: [...prefixes].map(([prefix, accounts]) => ({
      prefix,
      accounts,
      // Any model name routes; the order depends on the prefix's accounts only.
      try_order: gateway.quota.tryOrder(`${prefix}/*`, now),
    })),
    cooldowns: cooldowns.map((c) => ({
      account_id: c.accountId,
      remaining_s: c.remainingSeconds,
      until: c.untilMs,
      kind: c.kind,
    })),
  };
}

/** Token saver switches and their counters. */
export function saversSection({ gateway }: SectionInput): SaversSection {
  const s = gateway.state.settings;
  return {
    settings: {
      rtk_enabled: s.saver_rtk_enabled,
      caveman_enabled: s.saver_caveman_enabled,
      caveman_level: s.saver_caveman_level,
      ponytail_enabled: s.saver_ponytail_enabled,
      ponytail_level: s.saver_ponytail_level,
      headroom_enabled: s.saver_headroom_enabled,
      headroom_url: s.saver_headroom_url,
    },
    stats: gateway.reads.saverStats.all().map((r) => ({
      saver: r.saver,
      requests: r.requests,
      bytes_before: r.bytesBefore,
      bytes_after: r.bytesAfter,
      saved_pct: r.bytesBefore > 0 ? round(((r.bytesBefore - r.bytesAfter) * 100) / r.bytesBefore, 2) : 0,
      errors: r.errors,
    })),
  };
}

/** Budgets with today's status, and the keys a budget can be set for. */
export function budgetsSection({ gateway }: SectionInput): BudgetsSection {
  return {
    budgets: gateway.state.budgets.map((b) => budgetView(b, gateway)),
    keys: gateway.state.keys.filter((k) => k.status === "active").map((k) => ({ id: k.id, name: k.name })),
    timezone: gateway.budgetZone(),
  };
}

/** DB keys (prefix only) and the labels of static keys. */
export function keysSection({ gateway }: SectionInput): KeysSection {
  return {
    keys: gateway.state.keys.map((k) => keyView(k, gateway.state.budgets)),
    static_keys: gateway.state.config.apiKeys.map((k) => ({ label: k.label })),
  };
}

/** Builtin prices, overrides, and models used without a price. */
export function pricingSection({ gateway }: SectionInput): PricingSection {
  return {
    builtin: Object.entries(BUILTIN_PRICES).map(([m, p]) => priceView(m, p)),
    overrides: Object.entries(gateway.state.pricing).map(([m, p]) => priceView(m, p)),
    unpriced: gateway.reads.usageStats.unpriced(windowStart(gateway.now(), 30)).map((u) => ({
      model: u.model,
      requests: u.requests,
      input_tokens: u.inputTokens,
      output_tokens: u.outputTokens,
    })),
  };
}

const ENUM_OPTIONS: Partial<Record<SettingKey, readonly string[]>> = {
  server_account_strategy: ["fill_first", "round_robin", "sticky_round_robin", "quota_aware"],
  combo_strategy: ["fallback", "round_robin", "fusion"],
  saver_caveman_level: ["lite", "full", "ultra"],
  saver_ponytail_level: ["lite", "full", "ultra"],
};
const INTEGER_KEYS = new Set<SettingKey>([
  "server_request_log_retention",
  "server_account_sticky_limit",
  "combo_sticky_limit",
  "combo_fusion_min_panel",
]);

function settingType(key: SettingKey, fallback: unknown): SettingView["type"] {
  if (ENUM_OPTIONS[key]) return "enum";
  if (typeof fallback === "boolean") return "boolean";
  if (typeof fallback === "number") return INTEGER_KEYS.has(key) ? "integer" : "number";
  return "string";
}

/** Every runtime setting with its value, default and type, plus server information. */
export function settingsSection(
  { gateway }: SectionInput,
  startedAt: number,
  version: string,
): SettingsSection {
  const stored = gateway.manage.settings.stored();
  const resolved = resolveSettings(stored, gateway.state.config.server.requireApiKey);
  const config = gateway.state.config;
  return {
    settings: SETTING_KEYS.map((key) => {
      const fallback = key === "server_require_api_key"
        ? config.server.requireApiKey
        : (SETTING_DEFINITIONS[key] as { fallback: unknown }).fallback;
      return {
        key,
        value: resolved[key],
        default: fallback as SettingView["default"],
        stored: stored.has(key),
        description: describeSetting(key),
        type: settingType(key, fallback),
        ...(ENUM_OPTIONS[key] ? { options: ENUM_OPTIONS[key] } : {}),
      };
    }),
    server: {
      version,
      host: config.server.host,
      port: config.server.port,
      config_path: config.paths.configPath,
      db_path: databaseLabel(config),
      started_at: startedAt,
      uptime_s: Math.max(0, Math.round((gateway.now() - startedAt) / 1000)),
    },
  };
}
