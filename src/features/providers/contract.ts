/** Dashboard contract, managing side: providers, combos, routing, savers, budgets, keys, tools, pricing, settings. */
import type { ApiType } from "../../config/api_types.ts";
import type { UpstreamFormat } from "../../model/wire_format.ts";
import type { CooldownKind } from "../../routing/cooldown_policy.ts";
import type { BudgetView, CooldownView } from "../../dashboard/contract/usage.ts";
import type { AccountQuotaState } from "../routing/contract.ts";
import type { SigninFlow } from "../signin/plan.ts";

/** A provider with its credential masked, plus routing facts. */
export interface ProviderView {
  readonly id: string;
  readonly prefix: string;
  readonly api_type: ApiType;
  readonly base_url: string;
  readonly api_key_masked: string;
  readonly has_api_key: boolean;
  readonly models: readonly string[];
  readonly enabled: boolean;
  readonly format: UpstreamFormat;
  readonly cooldown: CooldownView | null;
  /** Subscription kinds: the stored credential's non-secret status (null for API-key kinds). */
  readonly credential?: CredentialView | null;
  /** Sign-in flows the Connect button offers (subscription kinds), preferred first; empty for API keys. */
  readonly signin_flows: readonly SigninFlow[];
  /** Kiro: the configured AWS region of the API hosts (null: the credential's own). */
  readonly region?: string | null;
  /** Google Cloud Code: the configured Cloud project (null: found by discovery). */
  readonly project?: string | null;
}

/** What the dashboard shows of a subscription credential (never a token). */
export interface CredentialView {
  readonly kind: "bare_token" | "oauth_blob" | "unreadable";
  /** Unix seconds, when known. */
  readonly expires_at: number | null;
  /** A refresh token is stored: the gateway renews the access token itself. */
  readonly refreshable: boolean;
  readonly account: string | null;
  /** Epoch ms of the last refresh this gateway made. */
  readonly last_refresh_at: number | null;
  /** The last refresh failure (re-sign-in needed when it says so). */
  readonly last_error: string | null;
  readonly last_error_at: number | null;
}

/** One provider kind and the wire format it speaks: the provider form offers these. */
export interface ApiTypeOption {
  readonly api_type: ApiType;
  readonly format: UpstreamFormat;
}

/** One free-tier preset as the provider form offers it. */
export interface FreeTierPresetView {
  readonly id: string;
  readonly label: string;
  readonly base_url: string;
  readonly models: readonly string[];
}

/** Answer of Test Connection (`POST /dashboard/api/providers/{id}/test`). */
export interface ProbeResult {
  readonly ok: boolean;
  readonly status: number;
  readonly latency_ms: number;
  readonly message: string;
  readonly model: string;
}

/** Answer of Fetch Models (`POST /dashboard/api/providers/fetch-models`). */
export interface FetchedModels {
  readonly ok: true;
  readonly models: readonly string[];
  readonly url: string;
}

/** Providers with masked credentials, and every api_type with its callability. */
export interface ProvidersSection {
  readonly providers: readonly ProviderView[];
  readonly api_types: readonly ApiTypeOption[];
  /** Free hosted providers (api_type free_tier): picking one fills the base URL and models. */
  readonly free_tier_presets?: readonly FreeTierPresetView[];
}

/** A combo with the members no enabled provider serves. */
export interface ComboView {
  readonly id: number;
  readonly name: string;
  readonly models: readonly string[];
  readonly unroutable: readonly string[];
}

/** Combos, the combo strategy, and the routable ids to pick members from. */
export interface CombosSection {
  readonly combos: readonly ComboView[];
  readonly strategy: string;
  readonly sticky_limit: number;
  readonly models: readonly string[];
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

/** One token saver's counters. */
export interface SaverStat {
  readonly saver: string;
  readonly requests: number;
  readonly bytes_before: number;
  readonly bytes_after: number;
  readonly saved_pct: number;
  readonly errors: number;
}

/** Token saver switches and their counters. */
export interface SaversSection {
  readonly settings: {
    readonly rtk_enabled: boolean;
    readonly caveman_enabled: boolean;
    readonly caveman_level: string;
    readonly ponytail_enabled: boolean;
    readonly ponytail_level: string;
    readonly headroom_enabled: boolean;
    readonly headroom_url: string;
  };
  readonly stats: readonly SaverStat[];
}

/** Budgets with today's status, and the keys a budget can be set for. */
export interface BudgetsSection {
  readonly budgets: readonly BudgetView[];
  readonly keys: readonly { readonly id: number; readonly name: string }[];
  readonly timezone: string;
}

/** A DB key as the dashboard shows it: never the key, only its display prefix. */
export interface KeyView {
  readonly id: number;
  readonly name: string;
  readonly prefix: string;
  readonly status: "active" | "revoked";
  readonly can_login: boolean;
  readonly allowed_models: readonly string[];
  /** The dashboard role in force, and whether it was set explicitly (else it follows the allowlist). */
  readonly role: "admin" | "viewer";
  readonly role_explicit: boolean;
  readonly daily_budget: number | null;
  readonly created_at: number;
  readonly updated_at: number;
}

/** DB keys (prefix only) and the labels of static keys. */
export interface KeysSection {
  readonly keys: readonly KeyView[];
  readonly static_keys: readonly { readonly label: string }[];
}

/** Answer of `POST /dashboard/api/v2/keys`: the plaintext is shown once. */
export interface CreatedKey {
  readonly ok: true;
  readonly key: KeyView;
  readonly plaintext: string;
}

/** One client's setup card. */
export interface ToolCard {
  readonly id: string;
  readonly title: string;
  readonly protocol: string;
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly snippet:
    | { readonly language: string; readonly path: string | null; readonly content: string }
    | null;
  readonly notes: readonly string[];
}

/** Base URLs, key placeholder, an example model and one setup card per client. */
export interface ToolsSection {
  readonly base_url: string;
  readonly base_url_v1: string;
  readonly require_api_key: boolean;
  readonly key_placeholder: string;
  readonly example_model: string;
  readonly cards: readonly ToolCard[];
}

/** A price in the snake_case shape of the YAML file (USD per million tokens). */
export interface PriceView {
  readonly model: string;
  readonly input_per_mtok: number;
  readonly output_per_mtok: number;
  readonly cache_creation_per_mtok: number;
  readonly cache_read_per_mtok: number;
}

/** Builtin prices, overrides, and models used without a price. */
export interface PricingSection {
  readonly builtin: readonly PriceView[];
  readonly overrides: readonly PriceView[];
  readonly unpriced: readonly {
    readonly model: string;
    readonly requests: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
  }[];
}

/** A runtime setting's value. */
export type SettingValue = string | number | boolean;

/** One runtime setting with its value, default and type. */
export interface SettingView {
  readonly key: string;
  readonly value: SettingValue;
  readonly default: SettingValue;
  readonly stored: boolean;
  readonly description: string;
  readonly type: "enum" | "boolean" | "integer" | "number" | "string";
  readonly options?: readonly string[];
}

/** Answer of `POST /dashboard/api/reset`: what was seeded again from the YAML file. */
export interface ResetResult {
  readonly ok: true;
  readonly seeded: { readonly providers: number; readonly combos: number };
}

/** Every runtime setting plus server information. */
export interface SettingsSection {
  readonly settings: readonly SettingView[];
  readonly server: {
    readonly version: string;
    readonly host: string;
    readonly port: number;
    readonly config_path: string;
    readonly db_path: string;
    readonly started_at: number;
    readonly uptime_s: number;
  };
}
