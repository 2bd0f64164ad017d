/**
 * The dashboard contract: the shape of every state section the server sends and the UI reads. The server's
 * section builders declare these as their return types and the Lit UI imports them type-only (esbuild
 * strips them), so a renamed field breaks the type check instead of a screen. Only type imports from pure
 * modules: the UI bundle must not pull server code in.
 */
import type {
  BudgetsSection,
  CombosSection,
  KeysSection,
  PricingSection,
  ProvidersSection,
  RoutingSection,
  SaversSection,
  SettingsSection,
  ToolsSection,
} from "../../features/providers/contract.ts";
import type { InventoryKeysSection, InventorySection } from "../../features/inventory/contract.ts";
import type {
  Alert,
  AnalyticsSection,
  LeaderboardSection,
  OverviewSection,
  RequestLogsSection,
  UsageSection,
} from "./usage.ts";

export type { ApiType } from "../../config/api_types.ts";
export type { WireFormat } from "../../model/wire_format.ts";
export type { SigninFlow } from "../../features/signin/plan.ts";
export type { SigninStatus, SigninView } from "../../features/signin/session.ts";
export type * from "../../features/providers/contract.ts";
export type * from "./usage.ts";
export type * from "../../features/inventory/contract.ts";
export type * from "../../features/routing/contract.ts";

/** Each state section's name mapped to the type of its `data`. */
export interface StateSections {
  readonly overview: OverviewSection;
  readonly usage: UsageSection;
  readonly analytics: AnalyticsSection;
  readonly leaderboard: LeaderboardSection;
  readonly "request-logs": RequestLogsSection;
  readonly inventory: InventorySection;
  readonly "inventory-keys": InventoryKeysSection;
  readonly providers: ProvidersSection;
  readonly combos: CombosSection;
  readonly routing: RoutingSection;
  readonly savers: SaversSection;
  readonly budgets: BudgetsSection;
  readonly keys: KeysSection;
  readonly tools: ToolsSection;
  readonly pricing: PricingSection;
  readonly settings: SettingsSection;
}

/** One state section's name. */
export type StateSection = keyof StateSections;

/** The envelope of `GET /dashboard/api/v2/state/{section}`. */
export interface StateEnvelope<S extends StateSection = StateSection> {
  readonly section: S;
  readonly alerts: readonly Alert[];
  readonly data: StateSections[S];
  readonly meta: StateMeta;
}

/** Timing and version of a state response, plus the view choices the section applied. */
export interface StateMeta {
  readonly generated_at: number;
  readonly took_ms: number;
  readonly version: string;
  readonly days?: number;
  readonly dimension?: string;
  readonly sort?: string;
  readonly page?: number;
  readonly limit?: number;
}
