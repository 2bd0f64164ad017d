/**
 * ID token validation (OpenID Connect Core §3.1.3.7): the signature with the provider's keys, then the
 * claims that bind the token to this issuer, this client, this moment and this sign-in.
 */
import type { KeySetCache } from "./jwks.ts";
import { parseJws } from "./jws.ts";
import { SsoError } from "./sso_error.ts";

/** How far the provider's clock may be from ours, by default. */
export const CLOCK_SKEW_MS = 60_000;

/** What an ID token must match. */
export interface IdTokenExpectation {
  readonly issuer: string;
  readonly clientId: string;
  /** The nonce this sign-in sent. */
  readonly nonce: string;
  readonly now: number;
  readonly skewMs: number;
}

/** The claims of a verified ID token. */
export type IdTokenClaims = Readonly<Record<string, unknown>> & { readonly sub: string };

function refuse(why: string): SsoError {
  return new SsoError("id_token", `The provider's ID token was refused: ${why}`);
}

function equalTexts(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a), y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * Checks the claims of an ID token whose signature is already verified. Pure; every refusal says which claim
 * failed and how (never the token itself).
 */
export function checkIdTokenClaims(
  claims: Record<string, unknown>,
  expect: IdTokenExpectation,
): IdTokenClaims {
  if (claims.iss !== expect.issuer) {
    throw refuse(`it was issued by ${JSON.stringify(claims.iss)}, not by ${expect.issuer}`);
  }
  const aud = claims.aud;
  const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(expect.clientId)) {
    throw refuse(`it is meant for another client (aud does not contain sso.client_id ${expect.clientId})`);
  }
  // Core §3.1.3.7 (4, 5): with several audiences the authorized party must be us.
  if (audiences.length > 1 && claims.azp === undefined) {
    throw refuse("it has several audiences and no azp naming this client");
  }
  if (claims.azp !== undefined && claims.azp !== expect.clientId) {
    throw refuse("its authorized party (azp) is another client");
  }
  const seconds = (name: string, required: boolean): number | undefined => {
    const value = claims[name];
    if (value === undefined && !required) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw refuse(`its ${name} is missing or not a number`);
    }
    return value * 1000;
  };
  const exp = seconds("exp", true)!, iat = seconds("iat", true)!, nbf = seconds("nbf", false);
  if (expect.now >= exp + expect.skewMs) {
    throw refuse("it has expired (check this server's clock if it keeps happening)");
  }
  if (iat > expect.now + expect.skewMs) {
    throw refuse("it was issued in the future (check this server's clock)");
  }
  if (nbf !== undefined && nbf > expect.now + expect.skewMs) throw refuse("it is not valid yet (nbf)");
  if (typeof claims.nonce !== "string" || !equalTexts(claims.nonce, expect.nonce)) {
    throw refuse("its nonce is not the one this sign-in sent (a replayed or foreign token)");
  }
  if (typeof claims.sub !== "string" || claims.sub === "") throw refuse("it has no subject (sub)");
  return claims as IdTokenClaims;
}

/** Verifies an ID token: its signature with the provider's key set at `jwksUri`, then its claims. */
export async function verifyIdToken(
  token: string,
  keys: KeySetCache,
  jwksUri: string,
  expect: IdTokenExpectation,
): Promise<IdTokenClaims> {
  const jws = parseJws(token);
  if (typeof jws === "string") throw refuse(jws);
  const verdict = await keys.verify(jws, jwksUri);
  switch (verdict) {
    case "valid":
      return checkIdTokenClaims(jws.payload, expect);
    case "unknown_key":
      throw refuse(
        `it is signed with a key (kid ${
          JSON.stringify(jws.kid ?? null)
        }, ${jws.alg}) that the provider's key set ` +
          "does not have",
      );
    case "invalid":
      throw refuse("its signature does not verify with the provider's keys");
  }
}
