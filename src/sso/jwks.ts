/**
 * The provider's signing keys (its `jwks_uri`), fetched on first use, kept for a while, and fetched again
 * once when a token names a key the kept set lacks: providers rotate keys, and the new one appears in the set
 * before tokens are signed with it.
 */
import type { OAuthFetch } from "../features/signin/oauth_http.ts";
import { fetchJsonObject } from "./fetch_json.ts";
import { importVerifyKey, keyFits, type ParsedJws, verifySignature } from "./jws.ts";

/** How long a fetched key set is kept by default. */
export const JWKS_TTL_MS = 60 * 60 * 1000;

/**
 * The shortest time between two fetches caused by unknown `kid`s: tokens naming made-up keys must not turn
 * the gateway into a client that hammers the provider.
 */
export const JWKS_REFETCH_INTERVAL_MS = 10_000;

type Jwk = JsonWebKey & { kid?: string; use?: string };

/** What a signature check found. */
export type SignatureVerdict = "valid" | "invalid" | "unknown_key";

/** One provider's key set, with imported keys kept per key and algorithm. */
export class KeySetCache {
  readonly #fetch: OAuthFetch;
  readonly #now: () => number;
  readonly #ttlMs: number;
  readonly #refetchIntervalMs: number;
  #keys: { url: string; keys: readonly Jwk[]; fetchedAt: number } | undefined;
  readonly #imported = new Map<string, Promise<CryptoKey | undefined>>();

  constructor(
    fetcher: OAuthFetch,
    now: () => number,
    ttlMs = JWKS_TTL_MS,
    refetchIntervalMs = JWKS_REFETCH_INTERVAL_MS,
  ) {
    this.#fetch = fetcher;
    this.#now = now;
    this.#ttlMs = ttlMs;
    this.#refetchIntervalMs = refetchIntervalMs;
  }

  /**
   * Checks a JWS against the key set at `jwksUri`: with the key its `kid` names (fetching the set again once
   * when that key is missing), or, without a `kid`, with each key that fits the algorithm.
   */
  async verify(jws: ParsedJws, jwksUri: string): Promise<SignatureVerdict> {
    let keys = await this.#current(jwksUri, false);
    let candidates = this.#candidates(keys, jws);
    if (candidates.length === 0 && this.#mayRefetch()) {
      keys = await this.#current(jwksUri, true);
      candidates = this.#candidates(keys, jws);
    }
    if (candidates.length === 0) return "unknown_key";
    for (const jwk of candidates) {
      const key = await this.#importKey(jwk, jws.alg);
      if (key !== undefined && await verifySignature(jws, key)) return "valid";
    }
    return "invalid";
  }

  #candidates(keys: readonly Jwk[], jws: ParsedJws): Jwk[] {
    return keys.filter((k) => (jws.kid === undefined || k.kid === jws.kid) && keyFits(k, jws.alg));
  }

  #mayRefetch(): boolean {
    return this.#keys === undefined || this.#now() >= this.#keys.fetchedAt + this.#refetchIntervalMs;
  }

  async #current(url: string, refresh: boolean): Promise<readonly Jwk[]> {
    const now = this.#now();
    const kept = this.#keys;
    if (!refresh && kept !== undefined && kept.url === url && now < kept.fetchedAt + this.#ttlMs) {
      return kept.keys;
    }
    const doc = await fetchJsonObject(this.#fetch, url, "OpenID provider's key set (jwks_uri)");
    const keys = Array.isArray(doc.keys)
      ? doc.keys.filter((k): k is Jwk => typeof k === "object" && k !== null && !Array.isArray(k))
      : [];
    this.#keys = { url, keys, fetchedAt: now };
    // Imported keys are tied to the set they came from: a key id reused with new material must not verify.
    this.#imported.clear();
    return keys;
  }

  #importKey(jwk: Jwk, alg: string): Promise<CryptoKey | undefined> {
    const id = `${alg}\n${jwk.kid ?? ""}\n${jwk.n ?? ""}${jwk.x ?? ""}${jwk.y ?? ""}`;
    let key = this.#imported.get(id);
    if (key === undefined) {
      key = importVerifyKey(jwk, alg);
      this.#imported.set(id, key);
    }
    return key;
  }
}
