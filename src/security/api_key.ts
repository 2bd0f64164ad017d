import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every database key starts with this. */
export const KEY_PREFIX = "sk-gateway-";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Characters of the key shown in listings (prefix plus a few random ones). */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 6;

/** A new key: `sk-gateway-` + 32 random bytes in base62 (about 43 characters). */
export function generateApiKey(): string {
  let n = 0n;
  for (const byte of randomBytes(32)) n = (n << 8n) | BigInt(byte);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return KEY_PREFIX + out.padStart(43, "0");
}

/** SHA-256 hex of a key: the only form in which keys are stored or compared. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b));
}

/** A random opaque token (dashboard sessions), base64url, 32 bytes. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}
