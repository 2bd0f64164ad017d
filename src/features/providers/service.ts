import type { ApiType, AzureSettings, OAuthOverrides, ProviderConfig } from "../../config/mod.ts";
import {
  CredentialFormatError,
  isCredentialJson,
  oauthKind,
  parseCredential,
} from "../../credentials/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

/** A provider account as a form submits it (validated for shape by the caller). */
export type ProviderInput = Omit<ProviderConfig, "capabilities">;

/** Changes to a provider; a blank `apiKey` keeps the stored one. */
export type ProviderChanges = Partial<Omit<ProviderInput, "id">>;

/** What Fetch Models is asked for: a stored provider, the form's unsaved values, or both. */
export interface FetchRequest {
  readonly providerId?: string;
  readonly apiType?: ApiType;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** The form's Azure settings (Azure kinds). */
  readonly azure?: AzureHints;
}

/** Where Fetch Models sends its request, with which key. */
export interface FetchTarget {
  readonly apiType: ApiType;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly azure?: AzureSettings;
  /** The stored provider, when its own stored credential goes to its own base URL unchanged. */
  readonly stored?: ProviderConfig;
}

/**
 * Provider accounts: create, update, enable/disable, delete. Each change reloads the gateway, which
 * rebuilds routing and closes the HTTP clients of providers that are gone or disabled.
 */
export class ProviderService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Every stored provider, in the store's order. */
  list(): ProviderConfig[] {
    return this.#deps.store.providers.list();
  }

  /** The stored provider with this id; 404 when none. */
  get(id: string): ProviderConfig {
    const provider = this.list().find((p) => p.id === id);
    if (!provider) throw notFound(`Provider "${id}" does not exist`);
    return provider;
  }

  /**
   * Where Fetch Models may send a key. A stored key goes only to its own provider's base URL, never to one
   * named in the request: a form that changed the base URL must give the key again.
   */
  fetchTarget(request: FetchRequest): FetchTarget {
    const stored = request.providerId ? this.get(request.providerId) : undefined;
    const given = request.apiKey?.trim() ?? "";
    const ownTarget = stored !== undefined && (request.baseUrl ?? stored.baseUrl) === stored.baseUrl;
    if (stored && !ownTarget && given === "") {
      throw invalidField(
        "api_key",
        "is required for a base_url other than the stored provider's (its stored key is only sent there)",
      );
    }
    const apiType = request.apiType ?? stored?.apiType;
    const baseUrl = request.baseUrl ?? stored?.baseUrl;
    if (!apiType) throw invalidField("api_type", "is required (or give provider_id)");
    if (!baseUrl) throw invalidField("base_url", "is required (or give provider_id)");
    const ownKey = ownTarget && given === "";
    const azure = azureSettings(apiType, stored?.azure, request.azure ?? {});
    return {
      apiType,
      baseUrl,
      apiKey: given !== "" ? given : ownTarget ? stored.apiKey : "",
      ...(azure ? { azure } : {}),
      ...(ownKey ? { stored: azure ? { ...stored, azure } : stored } : {}),
    };
  }

  /** Adds a provider; its id must be new and its prefix must not be a combo name. */
  create(input: ProviderInput): ProviderConfig {
    const { store } = this.#deps;
    if (store.providers.list().some((p) => p.id === input.id)) {
      throw invalidField("id", `a provider with id "${input.id}" already exists`, 409);
    }
    this.#checkPrefix(input.prefix);
    checkCredential(input.apiType, input.apiKey.trim(), this.#deps.now());
    return this.#save({ ...input, apiKey: input.apiKey.trim() });
  }

  /** Changes a provider. */
  update(id: string, changes: ProviderChanges): ProviderConfig {
    const current = this.get(id);
    if (changes.prefix !== undefined && changes.prefix !== current.prefix) this.#checkPrefix(changes.prefix);
    const apiKey = changes.apiKey?.trim();
    if (apiKey) checkCredential(changes.apiType ?? current.apiType, apiKey, this.#deps.now());
    return this.#save({
      ...current,
      prefix: changes.prefix ?? current.prefix,
      apiType: changes.apiType ?? current.apiType,
      baseUrl: changes.baseUrl ?? current.baseUrl,
      apiKey: apiKey ? apiKey : current.apiKey,
      models: changes.models ?? current.models,
      enabled: changes.enabled ?? current.enabled,
      oauth: changes.oauth ?? current.oauth,
      // A change of kind recomputes the Azure settings (the route always passes them); the CLI leaves them.
      azure: "azure" in changes ? changes.azure : current.azure,
      kinds: changes.kinds ?? current.kinds,
    });
  }

  /** Deletes a provider; 404 when none. */
  delete(id: string): void {
    this.get(id);
    this.#deps.store.providers.delete(id);
    this.#deps.reload();
  }

  #checkPrefix(prefix: string): void {
    if (this.#deps.store.combos.list().some((combo) => combo.name === prefix)) {
      throw invalidField("prefix", `"${prefix}" is already a combo name`);
    }
  }

  #save(provider: ProviderConfig): ProviderConfig {
    this.#deps.store.providers.upsert(provider, this.#deps.now());
    this.#deps.reload();
    return this.get(provider.id);
  }
}

/**
 * A pasted subscription credential must read: JSON without a token (or broken JSON) is refused with the
 * reason instead of being stored and failing on the first request. Bare tokens and API keys pass as typed.
 */
function checkCredential(apiType: ApiType, apiKey: string, nowMs: number): void {
  if (oauthKind(apiType) === null || !isCredentialJson(apiKey)) return;
  try {
    parseCredential(apiKey, Math.floor(nowMs / 1000));
  } catch (error) {
    if (error instanceof CredentialFormatError) throw invalidField("api_key", error.message);
    throw error;
  }
}

/** The Azure settings a provider form edits; undefined keeps the stored value. */
export interface AzureHints {
  readonly apiVersion?: string;
  readonly deployments?: Readonly<Record<string, string>>;
}

/** The Azure fields of a checked form, CLI or API body, as hints. */
export function azureHints(input: {
  readonly azure_api_version?: string;
  readonly azure_deployments?: Readonly<Record<string, string>>;
}): AzureHints {
  return { apiVersion: input.azure_api_version, deployments: input.azure_deployments };
}

/**
 * A provider's Azure settings with the form's applied: Azure kinds always have some (the v1 API by
 * default); other kinds have none, and naming them there is refused rather than stored unused.
 */
export function azureSettings(
  apiType: ApiType,
  current: AzureSettings | undefined,
  hints: AzureHints,
): AzureSettings | undefined {
  if (apiType !== "azure_openai" && apiType !== "azure_responses") {
    if (hints.apiVersion !== undefined) {
      throw invalidField("azure_api_version", "is only used by the Azure kinds");
    }
    if (hints.deployments !== undefined && Object.keys(hints.deployments).length > 0) {
      throw invalidField("azure_deployments", "is only used by the Azure kinds");
    }
    return undefined;
  }
  return {
    apiVersion: hints.apiVersion ?? current?.apiVersion ?? "v1",
    deployments: { ...(hints.deployments ?? current?.deployments ?? {}) },
  };
}

/** The call settings a provider form edits beside the credential; `""` clears one, undefined keeps it. */
export interface CallHints {
  readonly region?: string;
  readonly project?: string;
}

/**
 * A provider's OAuth overrides with the form's region (Kiro) and Cloud project (Google Cloud Code) applied.
 * Each belongs to its kinds only: naming one for another kind is refused rather than stored unused.
 */
export function withCallHints(
  apiType: ApiType,
  oauth: OAuthOverrides | undefined,
  hints: CallHints,
): OAuthOverrides {
  const next: { -readonly [K in keyof OAuthOverrides]: OAuthOverrides[K] } = { ...oauth };
  if (hints.region !== undefined) {
    if (hints.region !== "" && apiType !== "cloud_assistant_oauth") {
      throw invalidField("region", "is only used by the Kiro kind (cloud_assistant_oauth)");
    }
    if (hints.region === "") delete next.region;
    else next.region = hints.region;
  }
  if (hints.project !== undefined) {
    if (hints.project !== "" && apiType !== "cli_oauth" && apiType !== "cli_oauth_alt") {
      throw invalidField("project", "is only used by the Google Cloud Code kinds (cli_oauth, cli_oauth_alt)");
    }
    if (hints.project === "") delete next.project;
    else next.project = hints.project;
  }
  return next;
}
