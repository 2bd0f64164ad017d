/**
 * OpenID Connect Discovery 1.0: the provider's endpoints, read from `<issuer>/.well-known/openid-configuration`,
 * checked, and kept for a while so a sign-in does not cost a round trip to the provider for them.
 */
import type { OAuthFetch } from "../features/signin/oauth_http.ts";
import { fetchJsonObject } from "./fetch_json.ts";
import { SsoError } from "./sso_error.ts";

/** How the client authenticates at the token endpoint. */
export type TokenAuthMethod = "client_secret_basic" | "client_secret_post";

/** What a sign-in needs to know of the provider, after the checks. */
export interface ProviderMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly jwksUri: string;
  readonly userinfoEndpoint: string | null;
  readonly tokenAuthMethod: TokenAuthMethod;
  /** RFC 9207: the provider puts `iss` in its authorization responses, so a callback without it is refused. */
  readonly issInAuthorizationResponse: boolean;
}

/** Where an issuer's discovery document is (a trailing slash of the issuer is not doubled). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/**
 * Checks a discovery document against the configured issuer and reads what sign-in uses. The issuer must
 * match exactly (OIDC Discovery §4.3): a provider that names another one is misconfigured or not the one meant.
 */
export function readDiscovery(doc: Record<string, unknown>, issuer: string): ProviderMetadata {
  const unusable = (why: string) =>
    new SsoError("provider_unusable", `The OpenID provider ${issuer} cannot be used for sign-in: ${why}`);
  if (doc.issuer !== issuer) {
    throw unusable(
      `its discovery document names the issuer ${
        JSON.stringify(doc.issuer)
      }; set sso.issuer to exactly that ` +
        "value if it is the provider you mean",
    );
  }
  const secure = new URL(issuer).protocol === "https:";
  const endpoint = (name: string, required: boolean): string | null => {
    const value = doc[name];
    if (value === undefined && !required) return null;
    if (typeof value !== "string") throw unusable(`its discovery document has no ${name}`);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw unusable(`its ${name} is not a URL`);
    }
    // An https issuer whose endpoints are plain http would send codes and tokens in the clear.
    if (url.protocol !== "https:" && (secure || url.protocol !== "http:")) {
      throw unusable(`its ${name} is not an https:// URL`);
    }
    return value;
  };
  const list = (name: string): readonly unknown[] | undefined => {
    const value = doc[name];
    return Array.isArray(value) ? value : undefined;
  };
  const responseTypes = list("response_types_supported");
  if (responseTypes !== undefined && !responseTypes.includes("code")) {
    throw unusable("it does not offer the authorization code flow (response_types_supported lacks code)");
  }
  const challenges = list("code_challenge_methods_supported");
  if (challenges !== undefined && !challenges.includes("S256")) {
    throw unusable("it does not offer PKCE with S256 (code_challenge_methods_supported)");
  }
  // Discovery §3: when the list is absent, client_secret_basic is the default.
  const methods = list("token_endpoint_auth_methods_supported") ?? ["client_secret_basic"];
  const tokenAuthMethod: TokenAuthMethod | undefined = methods.includes("client_secret_basic")
    ? "client_secret_basic"
    : methods.includes("client_secret_post")
    ? "client_secret_post"
    : undefined;
  if (tokenAuthMethod === undefined) {
    throw unusable("its token endpoint takes neither client_secret_basic nor client_secret_post");
  }
  return {
    issuer,
    authorizationEndpoint: endpoint("authorization_endpoint", true)!,
    tokenEndpoint: endpoint("token_endpoint", true)!,
    jwksUri: endpoint("jwks_uri", true)!,
    userinfoEndpoint: endpoint("userinfo_endpoint", false),
    tokenAuthMethod,
    issInAuthorizationResponse: doc.authorization_response_iss_parameter_supported === true,
  };
}

/** How long discovery answers are kept by default. */
export const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * One issuer's metadata, fetched on first use and again after `ttlMs`. Concurrent callers share one fetch;
 * a failed fetch is not kept, so the next sign-in tries again.
 */
export class DiscoveryCache {
  readonly #issuer: string;
  readonly #fetch: OAuthFetch;
  readonly #now: () => number;
  readonly #ttlMs: number;
  #cached: { metadata: Promise<ProviderMetadata>; fetchedAt: number } | undefined;

  constructor(issuer: string, fetcher: OAuthFetch, now: () => number, ttlMs = DISCOVERY_TTL_MS) {
    this.#issuer = issuer;
    this.#fetch = fetcher;
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  /** The provider's checked metadata. */
  metadata(): Promise<ProviderMetadata> {
    const now = this.#now();
    if (this.#cached !== undefined && now < this.#cached.fetchedAt + this.#ttlMs) {
      return this.#cached.metadata;
    }
    const entry = {
      metadata: fetchJsonObject(this.#fetch, discoveryUrl(this.#issuer), "OpenID discovery document")
        .then((doc) => readDiscovery(doc, this.#issuer)),
      fetchedAt: now,
    };
    this.#cached = entry;
    entry.metadata.catch(() => {
      if (this.#cached === entry) this.#cached = undefined;
    });
    return entry.metadata;
  }
}
