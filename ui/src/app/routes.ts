/** The dashboard's screens, their URL slugs under /dashboard/ui and their sidebar groups. */

/** Identifier of one screen. */
export type ScreenId =
  | "overview"
  | "usage"
  | "analytics"
  | "leaderboard"
  | "request-logs"
  | "inventory"
  | "providers"
  | "combos"
  | "routing"
  | "savers"
  | "budgets"
  | "keys"
  | "tools"
  | "pricing"
  | "settings";

/** Sidebar group. */
export type NavGroup = "Observe" | "Route" | "Manage";

/** One screen's metadata. */
export interface ScreenInfo {
  readonly id: ScreenId;
  readonly title: string;
  readonly group: NavGroup;
  readonly description: string;
  /** Extra words the command palette matches on. */
  readonly keywords: string;
}

/** Base path of the single-page app. */
export const UI_BASE = "/dashboard/ui";

/** All screens in sidebar order. */
export const SCREENS: readonly ScreenInfo[] = [
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
    id: "inventory",
    title: "Inventory",
    group: "Route",
    description: "Upstream keys and their health.",
    keywords: "key inventory upstream keys credits",
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
    description: "Daily spend limits, global or per key.",
    keywords: "limits spend money",
  },
  {
    id: "keys",
    title: "API Keys",
    group: "Manage",
    description: "Keys clients use to call the gateway.",
    keywords: "tokens credentials access",
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
    id: "settings",
    title: "Settings",
    group: "Manage",
    description: "Runtime settings, export and reset.",
    keywords: "configuration export reset yaml",
  },
];

/** Sidebar groups in order. */
export const NAV_GROUPS: readonly NavGroup[] = ["Observe", "Route", "Manage"];

/** A parsed location inside the app. */
export interface AppLocation {
  readonly screen: ScreenId;
  readonly params: URLSearchParams;
}

/** Looks a screen up by id. */
export function screenInfo(id: ScreenId): ScreenInfo {
  return SCREENS.find((s) => s.id === id) ?? SCREENS[0];
}

/** Path of a screen (Overview is the bare base path). */
export function screenPath(id: ScreenId, params?: Record<string, string>): string {
  const path = id === "overview" ? UI_BASE : `${UI_BASE}/${id}`;
  const query = params ? new URLSearchParams(params).toString() : "";
  return query ? `${path}?${query}` : path;
}

/** Parses a pathname + search; unknown slugs are null so the shell can show "not found". */
export function parseLocation(pathname: string, search: string): AppLocation | null {
  const params = new URLSearchParams(search);
  const rest = pathname.startsWith(UI_BASE) ? pathname.slice(UI_BASE.length) : pathname;
  const slug = rest.replace(/^\/+|\/+$/g, "").split("/")[0] ?? "";
  if (slug === "" || slug === "overview") return { screen: "overview", params };
  const found = SCREENS.find((s) => s.id === slug);
  return found ? { screen: found.id, params } : null;
}
