/**
 * An in-process OpenID provider for the SSO unit tests: signing keys made with WebCrypto, JWTs signed with
 * them, and a `fetch` that answers discovery, the key set, the token and userinfo endpoints. Tests change
 * what it serves (claims, keys, discovery fields) to drive each refusal.
 */
import { base64Url } from "../../src/features/signin/base64url.ts";

/** A signing key: its private half for minting, its public JWK for the key set. */
export interface TestKey {
  readonly kid: string;
  readonly alg: "RS256" | "PS256" | "ES256";
  readonly privateKey: CryptoKey;
  readonly jwk: JsonWebKey & { kid: string; use: string; alg: string };
}

/** Makes a signing key for `alg`. */
export async function makeKey(kid: string, alg: TestKey["alg"] = "RS256"): Promise<TestKey> {
  const params = alg === "ES256" ? { name: "ECDSA", namedCurve: "P-256" } : {
    name: alg === "PS256" ? "RSA-PSS" : "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  };
  const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
  const { kty, n, e, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const jwk = alg === "ES256" ? { kty, crv, x, y } : { kty, n, e };
  return { kid, alg, privateKey: pair.privateKey, jwk: { ...jwk, kid, use: "sig", alg } };
}

const text = (value: unknown) => base64Url(new TextEncoder().encode(JSON.stringify(value)));

/** Signs `claims` as a compact JWS with `key` (header overrides let tests lie about alg or kid). */
export async function signJwt(
  claims: Record<string, unknown>,
  key: TestKey,
  header: Record<string, unknown> = {},
): Promise<string> {
  const input = `${text({ alg: key.alg, kid: key.kid, typ: "JWT", ...header })}.${text(claims)}`;
  const params = key.alg === "ES256"
    ? { name: "ECDSA", hash: "SHA-256" }
    : key.alg === "PS256"
    ? { name: "RSA-PSS", saltLength: 32 }
    : { name: "RSASSA-PKCS1-v1_5" };
  const signature = await crypto.subtle.sign(params, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${base64Url(new Uint8Array(signature))}`;
}

/** One token request as the fake provider received it. */
export interface TokenRequest {
  readonly authorization: string | null;
  readonly form: URLSearchParams;
}

/** The fake provider. */
export class FakeProvider {
  readonly issuer: string;
  readonly clientId = "gateway-client";
  readonly clientSecret = "client-secret-never-shown-0123456789";
  /** Keys in the published set; the first one signs. */
  keys: TestKey[];
  /** Extra or replaced discovery fields. */
  discoveryOverrides: Record<string, unknown> = {};
  /** Claims of the next ID token on top of the standard ones (iss, aud, sub, iat, exp, nonce). */
  idTokenClaims: Record<string, unknown> = {};
  /** What userinfo answers (sub added when absent). */
  userinfo: Record<string, unknown> = {};
  /** How many times each path was fetched. */
  readonly hits = new Map<string, number>();
  readonly tokenRequests: TokenRequest[] = [];
  /** The code the token endpoint accepts, and the nonce to put in the ID token (read from authorize). */
  readonly code = "authorization-code-never-shown-abc";
  nonce = "";
  /** Seconds since the epoch the fake provider stamps on tokens. */
  nowS: () => number;
  /** A token answer that replaces the normal one. */
  tokenAnswer: { status: number; body: Record<string, unknown> } | undefined;

  constructor(keys: TestKey[], nowMs: () => number, issuer = "https://id.example.test/realms/main") {
    this.keys = keys;
    this.issuer = issuer;
    this.nowS = () => Math.floor(nowMs() / 1000);
  }

  /** The standard claims of an ID token for this sign-in. */
  standardClaims(): Record<string, unknown> {
    return {
      iss: this.issuer,
      aud: this.clientId,
      sub: "user-123",
      iat: this.nowS(),
      exp: this.nowS() + 300,
      nonce: this.nonce,
    };
  }

  /** A fetch that answers the provider's endpoints. */
  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    this.hits.set(url.pathname, (this.hits.get(url.pathname) ?? 0) + 1);
    const base = new URL(this.issuer).pathname.replace(/\/+$/, "");
    switch (url.pathname) {
      case `${base}/.well-known/openid-configuration`:
        return Response.json({
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/auth`,
          token_endpoint: `${this.issuer}/token`,
          jwks_uri: `${this.issuer}/jwks`,
          userinfo_endpoint: `${this.issuer}/userinfo`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
          ...this.discoveryOverrides,
        });
      case `${base}/jwks`:
        return Response.json({ keys: this.keys.map((k) => k.jwk) });
      case `${base}/token`: {
        const form = new URLSearchParams(String(init.body));
        this.tokenRequests.push({ authorization: new Headers(init.headers).get("authorization"), form });
        if (this.tokenAnswer) {
          return Response.json(this.tokenAnswer.body, { status: this.tokenAnswer.status });
        }
        if (form.get("code") !== this.code) return Response.json({ error: "invalid_grant" }, { status: 400 });
        const idToken = await signJwt({ ...this.standardClaims(), ...this.idTokenClaims }, this.keys[0]);
        return Response.json({
          access_token: "access-token-never-shown",
          token_type: "Bearer",
          id_token: idToken,
        });
      }
      case `${base}/userinfo`:
        if (new Headers(init.headers).get("authorization") !== "Bearer access-token-never-shown") {
          return new Response("", { status: 401 });
        }
        return Response.json({ sub: "user-123", ...this.userinfo });
      default:
        return new Response("not found", { status: 404 });
    }
  };

  /** Plays the provider's authorization page: reads the request's nonce and state, answers with a callback query. */
  authorize(location: string, extra: Record<string, string> = {}): URLSearchParams {
    const url = new URL(location);
    this.nonce = url.searchParams.get("nonce") ?? "";
    return new URLSearchParams({ code: this.code, state: url.searchParams.get("state") ?? "", ...extra });
  }
}
