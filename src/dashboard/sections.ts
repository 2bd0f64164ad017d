import type { DashboardContext } from "./context.ts";
import type { StateEnvelope, StateSections, ToolsSection } from "./contract/mod.ts";
import { collectAlerts } from "./state/alerts.ts";
import type { SectionInput } from "./state/common.ts";
import {
  budgetsSection,
  combosSection,
  keysSection,
  pricingSection,
  providersSection,
  routingSection,
  saversSection,
  settingsSection,
} from "../features/settings/state.ts";
import { inventoryKeysSection, inventorySection } from "../features/inventory/state.ts";
import { requestLogsSection } from "../features/request_logs/state.ts";
import { toolCards } from "./state/tool_cards.ts";
import { analyticsSection, leaderboardSection, overviewSection, usageSection } from "./state/usage_sections.ts";

/** Every state section of the spec. */
export const STATE_SECTIONS = [
  "overview",
  "usage",
  "analytics",
  "leaderboard",
  "request-logs",
  "inventory",
  "inventory-keys",
  "providers",
  "combos",
  "routing",
  "savers",
  "budgets",
  "keys",
  "tools",
  "pricing",
  "settings",
] as const satisfies readonly (keyof StateSections)[];

/** One state section's name (the contract's keys; the switch below must cover each). */
export type StateSection = keyof StateSections;

/** True when `name` is a state section. */
export function isStateSection(name: string): name is StateSection {
  return (STATE_SECTIONS as readonly string[]).includes(name);
}

function sectionData(
  section: StateSection,
  ctx: DashboardContext,
  input: SectionInput,
): StateSections[StateSection] {
  switch (section) {
    case "overview":
      return overviewSection(input);
    case "usage":
      return usageSection(input, ctx.hub.recent());
    case "analytics":
      return analyticsSection(input);
    case "leaderboard":
      return leaderboardSection(input);
    case "request-logs":
      return requestLogsSection(input);
    case "inventory":
      return inventorySection(input, ctx.pushToken() !== undefined);
    case "inventory-keys":
      return inventoryKeysSection(input);
    case "providers":
      return providersSection(input);
    case "combos":
      return combosSection(input);
    case "routing":
      return routingSection(input);
    case "savers":
      return saversSection(input);
    case "budgets":
      return budgetsSection(input);
    case "keys":
      return keysSection(input);
    case "tools": {
      const requireKey = ctx.state.settings.server_require_api_key;
      const first = ctx.state.providers.find((p) => p.enabled && p.models.length > 0);
      const model = first ? `${first.prefix}/${first.models[0]}` : "<prefix>/<model>";
      const tools: ToolsSection = {
        base_url: input.origin,
        base_url_v1: `${input.origin}/v1`,
        require_api_key: requireKey,
        key_placeholder: requireKey ? "sk-gateway-…" : "none",
        example_model: model,
        cards: toolCards({ origin: input.origin, requireKey, model }),
      };
      return tools;
    }
    case "pricing":
      return pricingSection(input);
    case "settings":
      return settingsSection(input, ctx.startedAt, input.version);
  }
}

/** Builds `{section, alerts, data, meta}` for one section. */
export function buildState(
  section: StateSection,
  ctx: DashboardContext,
  query: URLSearchParams,
  origin: string,
  version: string,
): StateEnvelope {
  const started = performance.now();
  const input: SectionInput = { gateway: ctx, query, origin, inflight: ctx.hub.inflight, version };
  const data = sectionData(section, ctx, input);
  const alerts = collectAlerts(ctx);
  const echo: Record<string, unknown> = {};
  const fields: Record<string, unknown> = { ...data };
  for (const field of ["days", "dimension", "sort", "page", "limit"]) {
    if (field in fields) echo[field] = fields[field];
  }
  return {
    section,
    alerts,
    data,
    meta: {
      generated_at: ctx.now(),
      took_ms: Math.round((performance.now() - started) * 100) / 100,
      version,
      ...echo,
    },
  };
}
