/**
 * Compact JWS (RFC 7515) for ID tokens: parsing and signature checks with WebCrypto. Only asymmetric
 * algorithms are accepted: `none` and the HMAC family would let anyone who knows the client secret (or
 * nobody at all) mint a token.
 */

/** What one JWS algorithm is in WebCrypto terms, and which key type it takes. */
interface AlgorithmSpec {
  readonly kty: "RSA" | "EC";
  readonly importParams: RsaHashedImportParams | EcKeyImportParams;
  readonly verifyParams: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
  /** ECDSA signatures are r‖s of this many bytes (RFC 7518 §3.4). */
  readonly ecSignatureBytes?: number;
}

const rsa = (name: "RSASSA-PKCS1-v1_5" | "RSA-PSS", bits: 256 | 384 | 512): AlgorithmSpec => ({
  kty: "RSA",
  importParams: { name, hash: `SHA-${bits}` },
  verifyParams: name === "RSA-PSS" ? { name, saltLength: bits / 8 } : { name },
});

const ec = (curve: "P-256" | "P-384", bits: 256 | 384, bytes: number): AlgorithmSpec => ({
  kty: "EC",
  importParams: { name: "ECDSA", namedCurve: curve },
  verifyParams: { name: "ECDSA", hash: `SHA-${bits}` },
  ecSignatureBytes: bytes,
});

/** The ID token signature algorithms this gateway verifies. */
export const JWS_ALGORITHMS: Readonly<Record<string, AlgorithmSpec>> = {
  RS256: rsa("RSASSA-PKCS1-v1_5", 256),
  RS384: rsa("RSASSA-PKCS1-v1_5", 384),
  RS512: rsa("RSASSA-PKCS1-v1_5", 512),
  PS256: rsa("RSA-PSS", 256),
  PS384: rsa("RSA-PSS", 384),
  PS512: rsa("RSA-PSS", 512),
  ES256: ec("P-256", 256, 64),
  ES384: ec("P-384", 384, 96),
};

/** A compact JWS split into its parts; the payload is parsed but not yet trusted. */
export interface ParsedJws {
  readonly alg: string;
  readonly kid: string | undefined;
  readonly payload: Record<string, unknown>;
  readonly signingInput: Uint8Array<ArrayBuffer>;
  readonly signature: Uint8Array<ArrayBuffer>;
}

/** Bytes of unpadded base64url text, or undefined when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function jsonObject(bytes: Uint8Array | undefined): Record<string, unknown> | undefined {
  if (bytes === undefined) return undefined;
  try {
    const value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits and decodes a compact JWS. Refuses (with the reason, never the token) what is malformed, uses an
 * algorithm outside JWS_ALGORITHMS, or carries critical header extensions this code does not implement.
 */
export function parseJws(token: string): ParsedJws | string {
  const parts = token.split(".");
  if (parts.length !== 3) {
    return parts.length === 5 ? "it is encrypted (JWE), which is not supported" : "it is not a JWS";
  }
  const header = jsonObject(fromBase64Url(parts[0]));
  if (header === undefined) return "its header is not base64url JSON";
  const alg = header.alg;
  if (typeof alg !== "string" || !Object.hasOwn(JWS_ALGORITHMS, alg)) {
    return `it is signed with ${JSON.stringify(alg)}; accepted: ${Object.keys(JWS_ALGORITHMS).join(", ")}`;
  }
  if (header.crit !== undefined) {
    return "its header names critical extensions this gateway does not implement";
  }
  const payload = jsonObject(fromBase64Url(parts[1]));
  if (payload === undefined) return "its payload is not base64url JSON";
  const signature = fromBase64Url(parts[2]);
  if (signature === undefined || signature.length === 0) return "its signature is not base64url";
  return {
    alg,
    kid: typeof header.kid === "string" ? header.kid : undefined,
    payload,
    signingInput: new TextEncoder().encode(`${parts[0]}.${parts[1]}`),
    signature,
  };
}

/** True when `jwk` can verify signatures of `alg` (key type matches; `use`/`alg`/`key_ops`, when set, allow it). */
export function keyFits(jwk: JsonWebKey & { kid?: string; use?: string }, alg: string): boolean {
  const spec = JWS_ALGORITHMS[alg];
  if (spec === undefined || jwk.kty !== spec.kty) return false;
  if (jwk.use !== undefined && jwk.use !== "sig") return false;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (jwk.key_ops !== undefined && !jwk.key_ops.includes("verify")) return false;
  if (spec.kty === "EC" && jwk.crv !== (spec.importParams as EcKeyImportParams).namedCurve) return false;
  return true;
}

/** Imports a public JWK for verifying `alg`; undefined when WebCrypto refuses it (damaged or wrong shape). */
export async function importVerifyKey(jwk: JsonWebKey, alg: string): Promise<CryptoKey | undefined> {
  const spec = JWS_ALGORITHMS[alg];
  if (spec === undefined) return undefined;
  // Only the public members: a key set that (wrongly) publishes a private key must not make us hold one.
  const { kty, n, e, crv, x, y } = jwk;
  const publicJwk: JsonWebKey = spec.kty === "RSA" ? { kty, n, e } : { kty, crv, x, y };
  try {
    return await crypto.subtle.importKey("jwk", publicJwk, spec.importParams, false, ["verify"]);
  } catch {
    return undefined;
  }
}

/** Checks a parsed JWS's signature with `key`. */
export async function verifySignature(jws: ParsedJws, key: CryptoKey): Promise<boolean> {
  const spec = JWS_ALGORITHMS[jws.alg];
  if (spec === undefined) return false;
  if (spec.ecSignatureBytes !== undefined && jws.signature.length !== spec.ecSignatureBytes) return false;
  try {
    return await crypto.subtle.verify(spec.verifyParams, key, jws.signature, jws.signingInput);
  } catch {
    return false;
  }
}
