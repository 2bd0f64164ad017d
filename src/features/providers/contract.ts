/** Providers contract: the section, the views, and every provider route's body and answer. */
import type { ApiType } from "../../config/api_types.ts";
import type { UpstreamFormat } from "../../model/wire_format.ts";
import type { ModelKind } from "../../model/model_kind.ts";
import type { Done, Route } from "../../dashboard/contract/api.ts";
import type { CooldownView } from "../routing/contract.ts";
import type { SigninFlow } from "../signin/plan.ts";

export type { ApiType };

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
  /** Kinds declared per upstream model, over what the names say (`{}`: the names decide). */
  readonly kinds: Readonly<Record<string, ModelKind>>;
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
  /** Azure OpenAI kinds: the API version and model → deployment names (null for other kinds). */
  readonly azure?: AzureView | null;
}

/** An Azure provider's call settings as the form edits them. */
export interface AzureView {
  /** "v1" (the v1 API), "preview", or a dated version such as "2024-10-21". */
  readonly api_version: string;
  readonly deployments: Readonly<Record<string, string>>;
}

/** Azure model → deployment names: an object, or `model=deployment` lines (commas or newlines). */
export type DeploymentMap = Readonly<Record<string, string>> | string;

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
  /** The key is a stored sign-in: the form offers Connect (after saving) instead of an API-key field. */
  readonly signs_in?: boolean;
}

/** One free-tier preset as the provider form offers it. */
export interface FreeTierPresetView {
  readonly id: string;
  readonly label: string;
  readonly base_url: string;
  readonly models: readonly string[];
}

/** One vendor preset as the provider form offers it (`presets.ts`). */
export interface VendorPresetView {
  readonly id: string;
  readonly vendor: string;
  readonly api_type: ApiType;
  readonly base_url: string;
  /** `oauth`: the provider signs in with Connect after saving; `none`: no key is needed. */
  readonly auth: "api_key" | "none" | "oauth";
  readonly prefix: string;
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
  /** Vendors by name: picking one fills the kind, base URL, auth style and suggested models. */
  readonly vendor_presets?: readonly VendorPresetView[];
}

/** A model list: an array, or one string split at commas and newlines. */
export type ModelList = readonly string[] | string;

/** Body of `POST /providers`. */
export interface ProviderCreate {
  readonly id: string;
  readonly prefix: string;
  readonly api_type: ApiType;
  readonly base_url: string;
  readonly api_key?: string;
  readonly models?: ModelList;
  readonly enabled?: boolean;
  /** Kinds per upstream model when a name misleads (`{"bge-reranker-v2-m3": "rerank"}`; `{}` clears them). */
  readonly kinds?: Readonly<Record<string, ModelKind>>;
  /** Kiro's AWS region ("" clears it). */
  readonly region?: string;
  /** Google Cloud Code's project ("" clears it). */
  readonly project?: string;
  /** Azure kinds: the API version (default "v1"). */
  readonly azure_api_version?: string;
  /** Azure kinds: model → deployment names (a model without one is its own deployment). */
  readonly azure_deployments?: DeploymentMap;
}

/** Body of `PUT /providers/{id}`: what changes (a blank api_key keeps the stored one). */
export type ProviderUpdate = Partial<Omit<ProviderCreate, "id">>;

/** Body of Fetch Models: a stored provider, or the form's unsaved values. */
export interface FetchModelsRequest {
  readonly provider_id?: string;
  readonly api_type?: ApiType;
  readonly base_url?: string;
  readonly api_key?: string;
  readonly azure_api_version?: string;
  readonly azure_deployments?: DeploymentMap;
}

/**
 * Body of Test Connection on the form's unsaved values: with a model, a one-token request; without one, the
 * model list. `provider_id` lends a stored provider's key when the form leaves the key empty.
 */
export interface DraftTestRequest extends FetchModelsRequest {
  readonly model?: string;
}

/** Answer of a provider change: the provider as the list shows it. */
export interface ProviderSaved {
  readonly ok: true;
  readonly provider: ProviderView;
}

/** The providers routes. */
export interface ProvidersApi {
  readonly "POST /providers": Route<ProviderCreate, ProviderSaved>;
  readonly "PUT /providers/:id": Route<ProviderUpdate, ProviderSaved>;
  readonly "POST /providers/:id/enable": Route<undefined, ProviderSaved>;
  readonly "POST /providers/:id/disable": Route<undefined, ProviderSaved>;
  readonly "DELETE /providers/:id": Route<undefined, Done>;
  readonly "POST /providers/fetch-models": Route<FetchModelsRequest, FetchedModels>;
  readonly "POST /providers/test-draft": Route<DraftTestRequest, ProbeResult>;
  readonly "POST /providers/:id/test": Route<{ readonly model?: string } | undefined, ProbeResult>;
}
