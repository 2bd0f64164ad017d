/**
 * Dashboard single sign-on with OpenID Connect (authorization code with PKCE): `start` makes the provider
 * URL and records the pending login in the database; `finish` takes the provider's callback, trades the code,
 * verifies the ID token and decides who is admitted with which role. Any worker or instance can finish a
 * login another started. HTTP (cookies, redirects, the session) stays with the caller.
 */
import type { SsoConfig } from "../config/mod.ts";
import { hashApiKey } from "../security/api_key.ts";
import { base64Url } from "../features/signin/base64url.ts";
import type { OAuthFetch } from "../features/signin/oauth_http.ts";
import { createPkcePair } from "../features/signin/pkce_flow.ts";
import type { SsoLoginsRepo } from "../storage/mod.ts";
import { admit, claimValues, type SsoIdentity } from "./admission.ts";
import { DISCOVERY_TTL_MS, DiscoveryCache, type ProviderMetadata } from "./discovery.ts";
import { CLOCK_SKEW_MS, verifyIdToken } from "./id_token.ts";
import { JWKS_REFETCH_INTERVAL_MS, JWKS_TTL_MS, KeySetCache } from "./jwks.ts";
import { SsoError } from "./sso_error.ts";
import { exchangeCode, fetchUserinfo } from "./token_exchange.ts";

/** Where the provider sends the browser back, under the gateway's public origin. */
export const SSO_CALLBACK_PATH = "/dashboard/sso/callback";

/** Where the login page's button points. */
export const SSO_START_PATH = "/dashboard/sso/start";

/** How long a started sign-in may take at the provider before its callback is refused. */
export const SSO_LOGIN_TTL_MS = 10 * 60 * 1000;

/** Scopes every sign-in asks for; `sso.scopes` adds to them. */
export const BASE_SCOPES = ["openid", "email", "profile"] as const;

/** What the service needs; everything that does I/O or reads the clock or randomness is passed in. */
export interface SsoDeps {
  readonly config: SsoConfig;
  /** Used for discovery, keys, token and userinfo calls. */
  readonly fetch: OAuthFetch;
  /** Wall clock, epoch ms. */
  readonly now: () => number;
  /** Cryptographically random bytes. */
  readonly random: (bytes: number) => Uint8Array;
  /** Pending logins shared by every process (Store.ssoLogins). */
  readonly logins: Pick<SsoLoginsRepo, "put" | "take">;
  readonly discoveryTtlMs?: number;
  readonly keysTtlMs?: number;
  readonly keysRefetchIntervalMs?: number;
  readonly clockSkewMs?: number;
  readonly loginTtlMs?: number;
}

/** A started sign-in: send the browser to `location`, with `binding` in a short-lived cookie. */
export interface SsoStart {
  readonly location: string;
  /** The browser-binding value: set it as an HttpOnly, SameSite=Lax cookie that expires at `expiresAt`. */
  readonly binding: string;
  readonly expiresAt: number;
}

/** A finished sign-in: who to open a dashboard session for, and where to send the browser then. */
export interface SsoSignedIn {
  readonly identity: SsoIdentity;
  readonly next: string;
}

/** The callback's query, as the browser brought it back from the provider. */
export type CallbackParams = Pick<URLSearchParams, "get">;

/** Dashboard single sign-on against one OpenID provider. */
export class SsoService {
  readonly #deps: SsoDeps;
  readonly #discovery: DiscoveryCache;
  readonly #keys: KeySetCache;

  constructor(deps: SsoDeps) {
    this.#deps = deps;
    this.#discovery = new DiscoveryCache(
      deps.config.issuer,
      deps.fetch,
      deps.now,
      deps.discoveryTtlMs ?? DISCOVERY_TTL_MS,
    );
    this.#keys = new KeySetCache(
      deps.fetch,
      deps.now,
      deps.keysTtlMs ?? JWKS_TTL_MS,
      deps.keysRefetchIntervalMs ?? JWKS_REFETCH_INTERVAL_MS,
    );
  }

  /** The provider's name for the login page's "Sign in with …" button. */
  get displayName(): string {
    return this.#deps.config.displayName;
  }

  /**
   * The redirect URI registered at the provider: `sso.redirect_base_url` when set, else the origin browsers
   * reach the gateway at (the caller's trusted public origin), followed by the callback path.
   */
  redirectUri(publicOrigin: string): string {
    return `${this.#deps.config.redirectBaseUrl ?? publicOrigin.replace(/\/+$/, "")}${SSO_CALLBACK_PATH}`;
  }

  /**
   * Starts a sign-in: fresh PKCE verifier, state, nonce and browser binding; the pending login is stored (state
   * and binding hashed, verifier and nonce sealed) and the provider's authorization URL returned. `next` must
   * already be a safe dashboard path (login_routes' safeNext).
   */
  async start(input: { readonly redirectUri: string; readonly next: string }): Promise<SsoStart> {
    const metadata = await this.#discovery.metadata();
    const random = this.#deps.random;
    const pkce = await createPkcePair(random);
    const nonce = base64Url(random(24));
    const binding = base64Url(random(32));
    const now = this.#deps.now();
    const expiresAt = now + (this.#deps.loginTtlMs ?? SSO_LOGIN_TTL_MS);
    this.#deps.logins.put({
      stateHash: hashApiKey(pkce.state),
      bindingHash: hashApiKey(binding),
      redirectUri: input.redirectUri,
      next: input.next,
      createdAt: now,
      expiresAt,
    }, { verifier: pkce.verifier, nonce });
    const url = new URL(metadata.authorizationEndpoint);
    const scopes = [...new Set([...BASE_SCOPES, ...this.#deps.config.scopes])];
    const params: Record<string, string> = {
      response_type: "code",
      client_id: this.#deps.config.clientId,
      redirect_uri: input.redirectUri,
      scope: scopes.join(" "),
      state: pkce.state,
      nonce,
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { location: url.toString(), binding, expiresAt };
  }

  /**
   * Finishes a sign-in from the provider's callback and the browser's binding cookie (null when absent). The
   * pending login is taken first, so a state works once whatever happens next. Throws an SsoError whose
   * message the login page can show.
   */
  async finish(params: CallbackParams, binding: string | null): Promise<SsoSignedIn> {
    const state = params.get("state");
    if (state === null || state === "" || state.length > 512) {
      throw new SsoError("state", "The sign-in answer has no state: start again from the login page");
    }
    const taken = this.#deps.logins.take(hashApiKey(state));
    if (taken === undefined) {
      throw new SsoError(
        "state",
        "This sign-in is unknown or was already used (each one works once): start again from the login page",
      );
    }
    const now = this.#deps.now();
    if (taken.login.expiresAt <= now) {
      throw new SsoError("state", "This sign-in took too long and expired: start again from the login page");
    }
    if (binding === null || !equalHashes(hashApiKey(binding), taken.login.bindingHash)) {
      throw new SsoError(
        "browser_binding",
        "This sign-in was started in another browser (or its cookie was lost): start again from the login page",
      );
    }
    const metadata = await this.#discovery.metadata();
    checkResponseIssuer(params, metadata);
    const error = params.get("error");
    if (error !== null) {
      const description = (params.get("error_description") ?? "").replace(/\s+/g, " ").slice(0, 200);
      throw new SsoError(
        "provider_refused",
        `The provider did not sign you in: ${error.slice(0, 64)}${description ? `: ${description}` : ""}`,
      );
    }
    const code = params.get("code");
    if (code === null || code === "") {
      throw new SsoError("provider_refused", "The provider's answer has neither a code nor an error");
    }
    const config = this.#deps.config;
    const tokens = await exchangeCode(this.#deps.fetch, metadata.tokenEndpoint, {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      method: config.tokenAuthMethod ?? metadata.tokenAuthMethod,
    }, { code, verifier: taken.secrets.verifier, redirectUri: taken.login.redirectUri });
    const claims = await verifyIdToken(tokens.idToken, this.#keys, metadata.jwksUri, {
      issuer: config.issuer,
      clientId: config.clientId,
      nonce: taken.secrets.nonce,
      now: this.#deps.now(),
      skewMs: this.#deps.clockSkewMs ?? CLOCK_SKEW_MS,
    });
    let merged: Record<string, unknown> = claims;
    // Providers often leave email and groups out of the ID token in the code flow (Core §5.4): ask userinfo.
    if (
      this.#needsUserinfo(claims) && metadata.userinfoEndpoint !== null && tokens.accessToken !== undefined
    ) {
      const extra = await fetchUserinfo(
        this.#deps.fetch,
        metadata.userinfoEndpoint,
        tokens.accessToken,
        claims.sub,
      );
      // The signed ID token wins where both speak.
      merged = { ...extra, ...claims };
    }
    const identity = admit({ ...merged, sub: claims.sub }, config);
    return { identity, next: taken.login.next };
  }

  #needsUserinfo(claims: Readonly<Record<string, unknown>>): boolean {
    const roleClaim = this.#deps.config.roleClaim;
    return claims.email === undefined || (roleClaim !== null && claimValues(claims, roleClaim).length === 0);
  }
}

/** RFC 9207: a callback naming an issuer must name ours; a provider that promises the parameter must send it. */
function checkResponseIssuer(params: CallbackParams, metadata: ProviderMetadata): void {
  const iss = params.get("iss");
  if (iss === null ? metadata.issInAuthorizationResponse : iss !== metadata.issuer) {
    throw new SsoError(
      "provider_refused",
      "The sign-in answer did not come from the configured provider (its iss parameter is missing or another " +
        "issuer's)",
    );
  }
}

function equalHashes(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
