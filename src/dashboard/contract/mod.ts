/**
 * The dashboard contract: the shape of every state section the server sends and the UI reads, and the
 * route table of every call the UI makes. Each feature declares its own section and routes in
 * `src/features/<name>/contract.ts`; this module joins them. The server's section builders and route
 * handlers are typed by it and the Lit UI imports it type-only (esbuild strips it), so a renamed field breaks
 * the type check instead of a screen. Only type imports from pure modules: the UI bundle must not pull
 * server code in.
 */
import type { AuditApi } from "../../features/audit/contract.ts";
import type { BackupApi } from "../../features/backup/contract.ts";
import type { BudgetsApi, BudgetsSection } from "../../features/budgets/contract.ts";
import type { GroupsApi } from "../../features/groups/contract.ts";
import type { CombosApi, CombosSection } from "../../features/combos/contract.ts";
import type {
  InventoryApi,
  InventoryKeysSection,
  InventorySection,
} from "../../features/inventory/contract.ts";
import type { KeysApi, KeysSection } from "../../features/keys/contract.ts";
import type { PricingApi, PricingSection } from "../../features/pricing/contract.ts";
import type { ProvidersApi, ProvidersSection } from "../../features/providers/contract.ts";
import type { RequestLogsApi, RequestLogsSection } from "../../features/request_logs/contract.ts";
import type { RoutingApi, RoutingSection } from "../../features/routing/contract.ts";
import type { SaversSection, SettingsApi, SettingsSection } from "../../features/settings/contract.ts";
import type { SigninApi } from "../../features/signin/contract.ts";
import type { PathOf, PathParams } from "./api.ts";
import type { ToolsSection } from "./tools.ts";
import type { Alert, AnalyticsSection, LeaderboardSection, OverviewSection, UsageSection } from "./usage.ts";

export type * from "./api.ts";
export type * from "./tools.ts";
export type * from "./usage.ts";

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

/** One state section's name, declared here once (the server's registry and the UI's reads both use it). */
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

/** Every JSON route of the dashboard API the UI calls, by `"METHOD /path"`. */
export interface DashboardApi
  extends
    ProvidersApi,
    CombosApi,
    KeysApi,
    BudgetsApi,
    GroupsApi,
    PricingApi,
    SettingsApi,
    InventoryApi,
    RequestLogsApi,
    SigninApi,
    RoutingApi,
    BackupApi,
    AuditApi {}

/** A route of the dashboard API. */
export type ApiRoute = keyof DashboardApi & string;

/** The body a route takes (`undefined`: none). */
export type BodyOf<R extends ApiRoute> = DashboardApi[R]["body"];

/** What a route answers on success. */
export type AnswerOf<R extends ApiRoute> = DashboardApi[R]["answer"];

/** The path parameters a route names. */
export type ParamsOf<R extends ApiRoute> = PathParams<PathOf<R>>;
