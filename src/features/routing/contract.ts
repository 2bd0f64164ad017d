/** Routing contract: accounts in try order, cooldowns, quota headroom, and clearing cooldowns. */
import type { ApiType } from "../../config/api_types.ts";
import type { CooldownKind } from "../../routing/cooldown_policy.ts";
import type { Route } from "../../dashboard/contract/api.ts";

/** One limit window of an account on the Routing screen. */
export interface QuotaWindowState {
  readonly id: string;
  /** `upstream`: read from answers; `configured`: the operator's limit against the gateway's counts. */
  readonly source: "upstream" | "configured";
  readonly unit: "requests" | "tokens" | "percent";
  readonly limit: number | null;
  readonly remaining: number | null;
  /** Share left, 0..1; null when the upstream gave nothing to compute it from. */
  readonly headroom: number | null;
  /** Epoch ms when the window refills. */
  readonly reset_at: number | null;
  readonly rejected: boolean;
}

/** What routing knows about an account's limits. */
export interface AccountQuotaState {
  /** Share left in the tightest window, 0..1; null when no window gives a share. */
  readonly headroom: number | null;
  readonly reset_at: number | null;
  /** The account goes last in the try order (its tightest window is empty). */
  readonly deprioritised: boolean;
  /** Why it is deprioritised, in words; null when it is not. */
  readonly reason: string | null;
  readonly windows: readonly QuotaWindowState[];
}

/** An account's active cooldown. */
export interface CooldownView {
  readonly remaining_s: number;
  /** Epoch ms when the cooldown ends. */
  readonly until: number;
  readonly kind: CooldownKind | null;
}

/** One account of a prefix in try order. */
export interface RoutingAccount {
  readonly order: number;
  readonly id: string;
  readonly api_type: ApiType;
  readonly enabled: boolean;
  readonly ready: boolean;
  readonly cooldown: CooldownView | null;
  /** Limits and headroom; null when nothing is known or configured about the account's limits. */
  readonly quota: AccountQuotaState | null;
  /** Conversations whose prompt cache this account holds (prompt-cache affinity). */
  readonly cache_sessions: number;
  /** Subscription accounts: whether the stored credential can carry traffic (null for API-key kinds). */
  readonly credential_state?: CredentialState | null;
}

/** A subscription credential as the Routing screen shows it. */
export type CredentialState = "valid" | "expiring" | "refresh_failed" | "needs_sign_in";

/** Answer of `POST /dashboard/api/routing/clear-cooldowns`. */
export interface ClearedCooldowns {
  readonly ok: true;
  readonly cleared: number;
}

/** Answer of `POST /dashboard/api/routing/accounts/{id}/clear-cooldown`: whether it was cooling. */
export interface ClearedAccount {
  readonly ok: true;
  readonly cleared: boolean;
}

/** Accounts per prefix in try order with readiness, and active cooldowns. */
export interface RoutingSection {
  readonly cooldowns_enabled: boolean;
  readonly combo_strategy: string;
  readonly account_strategy: string;
  readonly prefixes: readonly {
    readonly prefix: string;
    readonly accounts: readonly RoutingAccount[];
    /** Account ids in the order the next request for this prefix would try them. */
    readonly try_order: readonly string[];
  }[];
  readonly cooldowns: readonly {
    readonly account_id: string;
    readonly remaining_s: number;
    readonly until: number;
    readonly kind: CooldownKind | null;
  }[];
}

/** The routing routes. */
export interface RoutingApi {
  readonly "POST /routing/clear-cooldowns": Route<undefined, ClearedCooldowns>;
  readonly "POST /routing/accounts/:id/clear-cooldown": Route<undefined, ClearedAccount>;
}
