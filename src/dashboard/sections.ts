import type { DashboardContext } from "./context.ts";
import type { StateEnvelope, StateSection, StateSections } from "./contract/mod.ts";
import { collectAlerts } from "./state/alerts.ts";
import type { SectionInput } from "./state/common.ts";
import { saversSection, settingsSection } from "../features/settings/state.ts";
import { budgetsSection } from "../features/budgets/state.ts";
import { combosSection } from "../features/combos/state.ts";
import { keysSection } from "../features/keys/state.ts";
import { pricingSection } from "../features/pricing/state.ts";
import { providersSection } from "../features/providers/state.ts";
import { routingSection } from "../features/routing/state.ts";
import { inventoryKeysSection, inventorySection } from "../features/inventory/state.ts";
import { requestLogsSection } from "../features/request_logs/state.ts";
import { toolsSection } from "./state/tool_cards.ts";
import {
  analyticsSection,
  leaderboardSection,
  overviewSection,
  usageSection,
} from "./state/usage_sections.ts";

/** Builds one section's data; the table below gives each section its own builder's type. */
type SectionBuilder<S extends StateSection> = (input: SectionInput) => StateSections[S];

/**
 * Every state section of the spec with its builder. The mapped type ties each name to its own data type, so
 * a builder returning another section's data does not type-check.
 */
const BUILDERS: { readonly [S in StateSection]: SectionBuilder<S> } = {
  overview: overviewSection,
  usage: (input) => usageSection(input, input.gateway.hub.recent()),
  analytics: analyticsSection,
  leaderboard: leaderboardSection,
  "request-logs": requestLogsSection,
  inventory: (input) => inventorySection(input, input.gateway.pushToken() !== undefined),
  "inventory-keys": inventoryKeysSection,
  providers: providersSection,
  combos: combosSection,
  routing: routingSection,
  savers: saversSection,
  budgets: budgetsSection,
  keys: keysSection,
  tools: toolsSection,
  pricing: pricingSection,
  settings: (input) => settingsSection(input, input.gateway.startedAt, input.version),
};

/** Every state section of the spec, in the order the spec lists them. */
export const STATE_SECTIONS = Object.keys(BUILDERS) as readonly StateSection[];

/** True when `name` is a state section. */
export function isStateSection(name: string): name is StateSection {
  return Object.hasOwn(BUILDERS, name);
}

/** One section's data, typed by its name. */
function sectionData<S extends StateSection>(section: S, input: SectionInput): StateSections[S] {
  const build: SectionBuilder<S> = BUILDERS[section];
  return build(input);
}

/** Builds `{section, alerts, data, meta}` for one section. */
export function buildState<S extends StateSection>(
  section: S,
  ctx: DashboardContext,
  query: URLSearchParams,
  origin: string,
  version: string,
): StateEnvelope<S> {
  const started = performance.now();
  const input: SectionInput = { gateway: ctx, query, origin, inflight: ctx.hub.inflight, version };
  const data = sectionData(section, input);
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
