/**
 * What an audit row may keep of a changed object: everything but secrets. Pure; applied by the audit log
 * repository to every before/after value on the way in, so no caller can store a secret by forgetting it.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a redacted field or value becomes. */
export const AUDIT_REDACTED = "[redacted]";

/** Words that make a field secret wherever they appear in its name (`webhook_secret`, `keyHash`). */
const SECRET_WORDS = new Set([
  "secret",
  "password",
  "passwd",
  "authorization",
  "cookie",
  "credential",
  "credentials",
  "hash",
  "signature",
  "private",
  "plaintext",
]);
/** Words that make a field secret when they end its name (`api_key`, `refresh_token`; not `max_tokens`). */
const SECRET_LAST_WORDS = new Set(["key", "apikey", "token", "verifier", "code"]);
/** Values that are secrets whatever their field: gateway keys, common provider keys, sealed blobs, JWTs. */
const SECRET_VALUE =
  /^(?:sk-[A-Za-z0-9_-]{12,}|enc:v1:|AIza[0-9A-Za-z_-]{20,}|gh[opusr]_[A-Za-z0-9]{20,}|eyJ[A-Za-z0-9_-]{6,}\.)/;
/** Nesting deeper than this is cut: an audit row describes a configuration object, not arbitrary data. */
const MAX_DEPTH = 12;

/** Whether a field of this name holds a secret (`api_key`, `keyHash`, `webhook_secret`; not `key_id`). */
export function isSecretField(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/).filter((w) =>
    w !== ""
  );
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  const last = words.at(-1);
  return last !== undefined && SECRET_LAST_WORDS.has(last);
}

/**
 * A copy of `value` as JSON with every secret replaced by "[redacted]": fields whose names say secret, and
 * string values shaped like a key. An empty secret stays empty (it says "none set", which the log may show).
 */
export function redactForAudit(value: unknown, depth = 0): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return SECRET_VALUE.test(value) ? AUDIT_REDACTED : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint") return Number(value);
  if (depth >= MAX_DEPTH) return AUDIT_REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactForAudit(v, depth + 1));
  if (typeof value === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined || typeof v === "function") continue;
      out[k] = isSecretField(k) && v !== null && v !== "" ? AUDIT_REDACTED : redactForAudit(v, depth + 1);
    }
    return out;
  }
  return null;
}
