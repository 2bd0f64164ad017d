/**
 * The dashboard's screens, once: the UI builds its router, sidebar and palette from this list and the
 * server redirects the former page URLs with it. Pure data, so both sides import it.
 */

/** Base path of the single-page app. */
export const UI_BASE = "/dashboard/ui";

/** Sidebar group. */
export type NavGroup = "Observe" | "Route" | "Manage";

/** One screen's metadata. */
export interface ScreenInfo {
  readonly id: string;
  readonly title: string;
  readonly group: NavGroup;
  readonly description: string;
  /** Extra words the command palette matches on. */
  readonly keywords: string;
}

/** All screens in sidebar order. */
export const SCREENS = [
  {
    id: "overview",
    title: "Overview",
    group: "Observe",
    description: "Traffic, spend and setup at a glance.",
    keywords: "home dashboard summary",
  },
  {
    id: "usage",
    title: "Usage",
    group: "Observe",
    description: "Live in-flight requests and gateway events.",
    keywords: "live stream events inflight",
  },
  {
    id: "analytics",
    title: "Analytics",
    group: "Observe",
    description: "Spend, tokens and success rate over time.",
    keywords: "cost spend charts breakdown",
  },
  {
    id: "leaderboard",
    title: "Leaderboard",
    group: "Observe",
    description: "Clients ranked by tokens, cost or requests.",
    keywords: "ranking clients top",
  },
  {
    id: "request-logs",
    title: "Request Logs",
    group: "Observe",
    description: "Captured requests and responses.",
    keywords: "logs history requests debug",
  },
  {
    id: "playground",
    title: "Playground",
    group: "Observe",
    description: "Try any model or combo as yourself, in any client format, and replay logged requests.",
    keywords: "try test chat prompt replay send",
  },
  {
    id: "inventory",
    title: "Inventory",
    group: "Route",
    description: "Upstream keys and their health.",
    keywords: "key inventory upstream keys credits",
  },
  {
    id: "inventory-keys",
    title: "All Keys",
    group: "Route",
    description: "Every inventory key: search, filter, recheck, archive.",
    keywords: "inventory keys list search filter recheck archive",
  },
  {
    id: "inventory-add",
    title: "Add Keys",
    group: "Route",
    description: "Paste upstream keys, one per line.",
    keywords: "inventory add paste keys bulk",
  },
  {
    id: "inventory-import",
    title: "Import JSON",
    group: "Route",
    description: "Import keys from an inventory export or a peer's file.",
    keywords: "inventory import json migrate oauth",
  },
  {
    id: "providers",
    title: "Providers",
    group: "Route",
    description: "Upstream connections the gateway routes to.",
    keywords: "upstream connections accounts",
  },
  {
    id: "combos",
    title: "Combos",
    group: "Route",
    description: "Named model groups with ordered fallback.",
    keywords: "fallback groups fusion",
  },
  {
    id: "routing",
    title: "Routing",
    group: "Route",
    description: "Readiness, try order and cooldowns.",
    keywords: "cooldowns readiness accounts order",
  },
  {
    id: "savers",
    title: "Token Savers",
    group: "Route",
    description: "Prompt compression before requests go upstream.",
    keywords: "rtk caveman ponytail headroom compression",
  },
  {
    id: "budgets",
    title: "Budgets",
    group: "Manage",
    description: "Spend limits per day, week, month or rolling window; global, per group or per key.",
    keywords: "limits spend money weekly monthly rolling webhook alerts",
  },
  {
    id: "keys",
    title: "API Keys",
    group: "Manage",
    description: "Keys clients use to call the gateway, their groups, limits and expiry.",
    keywords: "tokens credentials access groups teams rate limits rpm rotate expiry",
  },
  {
    id: "tools",
    title: "Tools",
    group: "Manage",
    description: "Point coding tools and SDKs at this gateway.",
    keywords: "clients setup claude codex env",
  },
  {
    id: "pricing",
    title: "Pricing",
    group: "Manage",
    description: "Prices per million tokens used for cost.",
    keywords: "prices cost rates overrides",
  },
  {
    id: "audit",
    title: "Audit Log",
    group: "Manage",
    description: "Who changed what, when and from where; sign-ins.",
    keywords: "audit history changes sign-ins security export",
  },
  {
    id: "settings",
    title: "Settings",
    group: "Manage",
    description: "Runtime settings, export and reset.",
    keywords: "configuration export reset yaml",
  },
] as const satisfies readonly ScreenInfo[];

/** Identifier of one screen. */
export type ScreenId = typeof SCREENS[number]["id"];

/** Sidebar groups in order. */
export const NAV_GROUPS: readonly NavGroup[] = ["Observe", "Route", "Manage"];

/** The custom element that renders a screen (`gw-<id>-screen`). */
export function screenTag(id: ScreenId): string {
  return `gw-${id}-screen`;
}
