/**
 * The signature on budget webhooks: HMAC-SHA256 over `<timestamp>.<body>` with the budget's webhook secret,
 * sent as `x-gateway-signature: t=<unix seconds>,v1=<hex digest>`. A receiver recomputes the digest over the
 * raw body it received, compares in constant time, and refuses a timestamp further than its tolerance from
 * its own clock (5 minutes by default) so a captured delivery cannot be replayed later. Uses Web Crypto only.
 */

/** The header carrying the signature. */
export const SIGNATURE_HEADER = "x-gateway-signature";
/** How far a timestamp may be from the receiver's clock, by default. */
export const DEFAULT_TOLERANCE_S = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The signature header value for a body sent at `timestampS` (unix seconds). */
export async function signWebhook(secret: string, body: string, timestampS: number): Promise<string> {
  return `t=${timestampS},v1=${await hmacHex(secret, `${timestampS}.${body}`)}`;
}

/** Why a signature was refused, or null when it is valid. */
export async function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null,
  nowMs: number,
  toleranceS = DEFAULT_TOLERANCE_S,
): Promise<string | null> {
  if (header === null) return "no signature header";
  const parts = new Map<string, string[]>();
  for (const item of header.split(",")) {
    const at = item.indexOf("=");
    if (at <= 0) continue;
    const name = item.slice(0, at).trim();
    parts.set(name, [...(parts.get(name) ?? []), item.slice(at + 1).trim()]);
  }
  const timestamp = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(timestamp)) return "no timestamp";
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceS) return "timestamp outside the tolerance";
  const expected = await hmacHex(secret, `${timestamp}.${body}`);
  // Several v1 values are allowed (a receiver may be sent one per secret during a secret change).
  for (const candidate of parts.get("v1") ?? []) if (constantTimeEqual(candidate, expected)) return null;
  return "signature mismatch";
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
