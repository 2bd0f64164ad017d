import type { DeclaredKinds } from "../model/model_kind.ts";
import type { TelemetryYaml } from "../telemetry/config.ts";
import type { ApiType } from "./api_types.ts";
import type { HomePaths } from "./paths.ts";

/** Saver levels shared by Caveman and Ponytail. */
export type SaverLevel = "lite" | "full" | "ultra";

/** How a model's thinking is expressed upstream (overrides the built-in capability table). */
export type ThinkingFormatOverride =
  | "anthropic_budget"
  | "openai_effort"
  | "google_budget"
  | "google_level"
  | "none";

/** What a user may say about one upstream model, overriding the built-in capability table. */
export interface CapabilityOverride {
  readonly vision?: boolean;
  readonly reasoning?: boolean;
  readonly thinkingFormat?: ThinkingFormatOverride;
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly maxThinkingBudget?: number;
}

/** Configured limits of one account: requests per minute/day and subscription quota windows. */
export interface ProviderQuota {
  readonly rpm?: number;
  readonly rpd?: number;
  readonly windows: readonly {
    readonly window: "5h" | "daily" | "weekly" | "monthly";
    readonly metric: "requests" | "tokens";
    readonly limit: number;
  }[];
}

/** One provider account as the gateway uses it. */
export interface ProviderConfig {
  readonly id: string;
  readonly prefix: string;
  readonly apiType: ApiType;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly models: readonly string[];
  readonly enabled: boolean;
  /** Per upstream model; absent means the built-in table alone decides. */
  readonly capabilities?: Readonly<Record<string, CapabilityOverride>>;
  /** Configured limits; absent means only what upstream answers report. */
  readonly quota?: ProviderQuota;
  /** Kinds declared per upstream model (YAML `kinds`), over what the names say; absent: names alone decide. */
  readonly kinds?: DeclaredKinds;
  /** Subscription kinds: overrides of the kind's OAuth endpoints (see src/credentials/kinds.ts). */
  readonly oauth?: OAuthOverrides;
  /** Azure OpenAI kinds: the API version and model → deployment names (see src/executors/azure.ts). */
  readonly azure?: AzureSettings;
}

/** How an Azure OpenAI resource is called (YAML `providers[].azure`). */
export interface AzureSettings {
  /** "v1" (or "preview"): the v1 API; a dated version: the per-deployment API with `?api-version=`. */
  readonly apiVersion: string;
  /** Model name → deployment name; a model without an entry is called by its own name. */
  readonly deployments: Readonly<Record<string, string>>;
}

/**
 * Per-provider overrides of a subscription kind's OAuth endpoints (YAML `providers[].oauth`): tests,
 * enterprise proxies and regional hosts set them; absent fields keep the real hosts.
 */
export interface OAuthOverrides {
  readonly clientId?: string;
  /** Installed-app client secret (Google's kinds), from configuration or the environment via ${VAR}. */
  readonly clientSecret?: string;
  readonly tokenUrl?: string;
  readonly authorizeUrl?: string;
  readonly redirectUri?: string;
  readonly deviceCodeUrl?: string;
  readonly deviceTokenUrl?: string;
  readonly verificationUrl?: string;
  /** AWS (Kiro): where the device sign-in registers its client. */
  readonly registerUrl?: string;
  /** AWS (Kiro): an Identity Center organisation's start URL (default: Builder ID's portal). */
  readonly startUrl?: string;
  readonly sessionTokenUrl?: string;
  readonly usageUrl?: string;
  /**
   * Kiro (`cloud_assistant_oauth`): the account's AWS region: the sign-in's OIDC hosts (stored in the
   * credential it makes) and the API hosts, over the region a pasted credential names. A refresh goes to
   * the credential's own region, where its client was registered.
   */
  readonly region?: string;
  /** Google Cloud Code: the Cloud project to call, used instead of the one discovery finds. */
  readonly project?: string;
}

/** A named ordered list of `<prefix>/<model>` entries. */
export interface ComboConfig {
  readonly name: string;
  readonly models: readonly string[];
}

/** A static key from YAML: full access, identified in logs by its label. */
export interface StaticKeyConfig {
  readonly key: string;
  readonly label: string;
}

/** Prices of one model: per million tokens, and per image, second or million characters for media models. */
export interface PriceConfig {
  readonly inputPerMtok: number;
  readonly outputPerMtok: number;
  readonly cacheCreationPerMtok: number;
  readonly cacheReadPerMtok: number;
  readonly perImage?: Readonly<Record<string, number>>;
  readonly perSecond?: number;
  readonly perMchar?: number;
  readonly perSearchUnit?: number;
}

/** Token saver switches as seeded from YAML. */
export interface TokenSaversConfig {
  readonly rtk: { readonly enabled: boolean };
  readonly caveman: { readonly enabled: boolean; readonly level: SaverLevel };
  readonly ponytail: { readonly enabled: boolean; readonly level: SaverLevel };
  readonly headroom: { readonly enabled: boolean; readonly url: string };
}

/** What an upstream may cost the gateway (YAML `limits:`): sizes in bytes or characters, times in ms. */
export interface UpstreamLimitsConfig {
  /** Largest non-stream answer body read; a larger one fails the attempt with a 502. */
  readonly maxAnswerBytes: number;
  /** Largest stream event or line, in characters of text. */
  readonly maxStreamEventChars: number;
  /** Largest response head (status line and headers) from the gateway's own HTTP client. */
  readonly maxHeaderBytes: number;
  /** Longest wait for response headers. */
  readonly responseTimeoutMs: number;
  /** Longest silence between body bytes. */
  readonly idleTimeoutMs: number;
  /** A stream's first content must arrive this long after the request was sent (comments do not count). */
  readonly firstContentTimeoutMs: number;
  /** Longest a stream may run in all; 0 = no limit. */
  readonly maxStreamDurationMs: number;
  /** Requests in flight per provider (and so connections); more wait for a free one. */
  readonly maxConnections: number;
  /** Longest wait for a free connection slot before the attempt fails over. */
  readonly poolWaitTimeoutMs: number;
}

/** How inventory keys are checked and pushed (YAML `inventory:`); times in ms. */
export interface InventoryConfig {
  /** Every key is re-checked this often; 0 = only on add, push and demand. */
  readonly checkIntervalMs: number;
  /** Checks running at once. */
  readonly checkConcurrency: number;
  /** First retry after a check ended in `error` (doubling, six retries); 0 = wait for the interval. */
  readonly errorRetryMs: number;
  /** Longest one upstream call of a check may take. */
  readonly checkTimeoutMs: number;
  /** Send a 1-token request to learn whether a valid key can actually be used. */
  readonly usabilityProbe: boolean;
  /**
   * Mirror each provider row's own key into the inventory and check it at the row's base URL (private and
   * loopback addresses included: an administrator configured them).
   */
  readonly checkProviderKeys: boolean;
  /** Checks may reach private, loopback and link-local addresses (off: public only). */
  readonly allowPrivateTargets: boolean;
  /** Keys one client may submit per window (push, Add Keys, import). */
  readonly pushRateLimit: number;
  readonly pushRateWindowMs: number;
}

/**
 * Dashboard single sign-on with OpenID Connect (YAML `sso:`; docs/sso.md): the provider, who may sign in,
 * and how a claim maps to a dashboard role.
 */
export interface SsoConfig {
  /** Shown on the login page's button: "Sign in with <displayName>". */
  readonly displayName: string;
  /** The provider's issuer, exactly as its discovery document states it. */
  readonly issuer: string;
  readonly clientId: string;
  /** A credential (use `${VAR}`): never logged, shown or stored. */
  readonly clientSecret: string;
  /** The origin (and path prefix) browsers reach the gateway at; null: the request's trusted public origin. */
  readonly redirectBaseUrl: string | null;
  /** Scopes asked for beyond `openid email profile`. */
  readonly scopes: readonly string[];
  /** Email domains allowed to sign in, lower case, matched exactly; `*` allows any. */
  readonly allowedDomains: readonly string[];
  /** The claim whose value(s) decide the role (a name, or a dotted path into nested claims); null: none. */
  readonly roleClaim: string | null;
  /** Claim values that make an administrator (checked first). */
  readonly adminValues: readonly string[];
  /** Claim values that make a viewer. */
  readonly viewerValues: readonly string[];
  /** The role of an allowed user no value maps: none refuses the sign-in. */
  readonly defaultRole: "none" | "viewer";
  /** How the client authenticates at the token endpoint; null: as discovery offers (basic first). */
  readonly tokenAuthMethod: "client_secret_basic" | "client_secret_post" | null;
}

/** The resolved, readonly configuration: built once at the edge from the YAML file. */
export interface Config {
  readonly paths: HomePaths;
  readonly server: {
    readonly host: string;
    readonly port: number;
    readonly requireApiKey: boolean;
    /** How long a shutdown waits for in-flight requests before ending them (their rows are still written). */
    readonly drainTimeoutMs: number;
    /** Peers whose X-Forwarded-* headers are believed (IPs or CIDR ranges); none by default. */
    readonly trustedProxies: readonly string[];
    /** Image prefetch may fetch from private, loopback and link-local addresses (off: public only). */
    readonly allowPrivateImageUrls: boolean;
  };
  readonly limits: UpstreamLimitsConfig;
  readonly inventory: InventoryConfig;
  /** Where the tables live: the SQLite file under home (url null), or PostgreSQL (YAML or GATEWAY_DATABASE_URL). */
  readonly storage: { readonly url: string | null };
  readonly apiKeys: readonly StaticKeyConfig[];
  readonly providers: readonly ProviderConfig[];
  readonly combos: readonly ComboConfig[];
  readonly tokenSavers: TokenSaversConfig;
  readonly pricing: Readonly<Record<string, PriceConfig>>;
  /** `GET /metrics` (YAML `metrics:`); GATEWAY_METRICS_TOKEN overrides the token. */
  readonly metrics: {
    readonly enabled: boolean;
    /** Bearer token for scrapers; empty: only dashboard access may scrape. */
    readonly token: string;
    /** The instance label; empty: the host name. */
    readonly instance: string;
  };
  /** Dashboard single sign-on; null when not configured (API keys only). */
  readonly sso: SsoConfig | null;
  /** OTLP trace export and request log lines (YAML `telemetry:`); the OTEL_* variables are applied at composition. */
  readonly telemetry: TelemetryYaml;
}

/** Where the database is: the PostgreSQL URL when one is configured, else the SQLite file. */
export function databaseLocation(config: Pick<Config, "storage" | "paths">): string {
  return config.storage.url ?? config.paths.dbPath;
}

/** The database location fit for logs and screens: a PostgreSQL URL without its password. */
export function databaseLabel(config: Pick<Config, "storage" | "paths">): string {
  const location = databaseLocation(config);
  return config.storage.url === null ? location : location.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
