import type { ControlPlane } from "../gateway/control_plane.ts";
import type { ActiveCooldown, Headroom, ModelKind } from "../routing/mod.ts";
import type { Management, PeriodBudgetStatusOf } from "../features/mod.ts";
import type { Store } from "../storage/mod.ts";
import type { IdentityRules } from "./identity.ts";
import type { SigninService } from "../features/signin/mod.ts";
import type { SsoService } from "../sso/mod.ts";
import type { LiveHub } from "./live_hub.ts";
import type { SubscriptionConsole } from "../features/providers/subscription_probe.ts";

/** The gateway's configuration in force, as the dashboard reads it (in memory, refreshed on reload). */
export type GatewayState = Pick<
  ControlPlane,
  | "config"
  | "settings"
  | "providers"
  | "accounts"
  | "combos"
  | "pricing"
  | "budgets"
  | "periodBudgets"
  | "groups"
  | "keys"
  | "keyRateLimits"
  | "lastUsedAt"
  | "identify"
  | "redactor"
>;

/** Stored statistics, request logs, the inventory and sign-in sessions, for reading. */
export type DashboardReads = Pick<
  Store,
  | "usageStats"
  | "saverStats"
  | "requestLogs"
  | "requests"
  | "keys"
  | "inventory"
  | "inventoryChecks"
  | "sessions"
  | "credentials"
>;

/**
 * Everything the dashboard reads and changes, and nothing more: the composition root builds it from the
 * runtime, so the dashboard never reaches into the gateway's parts.
 */
export interface DashboardContext {
  readonly now: () => number;
  readonly state: GatewayState;
  /** Every change goes through the management services. */
  readonly manage: Management;
  readonly reads: DashboardReads;
  readonly cooldowns: {
    active(now: number): ActiveCooldown[];
    clearAll(): void;
    /** Clears one account's cooldown; false when it was not cooling. */
    clearAccount(accountId: string): boolean;
  };
  /** Quota-aware routing, read-only: headroom, the next try order, prompt-cache bindings. */
  readonly quota: {
    headroom(accountId: string, now: number): Headroom | undefined;
    /** Account ids in the order the next request for `model` would get, or [] when it cannot route. */
    tryOrder(model: string, now: number): string[];
    cacheSessions(now: number): ReadonlyMap<string, number>;
  };
  /** Today's spend of a scope (null = all keys), from the budget guard's in-memory totals. */
  readonly spentToday: (keyId: number | null) => number;
  /** Where a budget of any period and scope stands now (the budget guard's in-memory spend). */
  readonly budgetStatus: PeriodBudgetStatusOf;
  /** The reporting time zone in force. */
  readonly budgetZone: () => string;
  /**
   * Every routable model and combo with what it makes (as `/v1/models` says), in listing order: the
   * Playground offers the request kinds a model can serve.
   */
  readonly models: () => readonly { readonly id: string; readonly modelKind: ModelKind }[];
  /** Writes pending rows (usage, request logs) now, so a read sees them. */
  readonly flushWrites: () => void;
  readonly hub: LiveHub;
  readonly startedAt: number;
  /** A keyed hash under the server's secret key (what sessions store of static keys). */
  readonly fingerprint: (text: string) => string;
  /** Roles and labels of identities, by the gateway's rules. */
  readonly identity: IdentityRules;
  /** The inventory push token, read when used so it can be rotated without restart. */
  readonly pushToken: () => string | undefined;
  /** Fetch Models and Test Connection of subscription kinds, through the gateway's own credentials. */
  readonly subscriptions: SubscriptionConsole;
  /** Subscription sign-ins (Connect on the Providers screen). */
  readonly signin: SigninService;
  /** Dashboard single sign-on (null without an `sso:` section). */
  readonly sso: SsoService | null;
}
