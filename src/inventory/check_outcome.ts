/**
 * What a key check means (pure): statuses and usability, rate limits and credits read from an upstream's
 * answers, and the key's health. The checker (key_checker.ts) makes the calls; this file judges them.
 */

/** Lifecycle status of an inventory key. */
export type KeyStatus =
  | "pending_validation"
  | "active"
  | "invalid"
  | "error"
  | "daily_exhausted"
  | "unidentified"
  | "revoked";

/** Whether a valid key can actually be used for a request. */
export type Usability =
  | "usable"
  | "access_token_only"
  | "no_quota"
  | "rate_limited"
  | "restricted"
  | "unknown"
  | "auth_failed";

/** Every status, for filters and validation. */
export const KEY_STATUSES: readonly KeyStatus[] = [
  "pending_validation",
  "active",
  "invalid",
  "error",
  "daily_exhausted",
  "unidentified",
  "revoked",
];

/** Limits an upstream announced for the key. */
export interface RateLimits {
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly rpd: number | null;
}

/** Credit balance, where the upstream exposes one (USD). */
export interface Credits {
  readonly remaining: number | null;
  readonly total: number | null;
  readonly used: number | null;
}

/** The result of one check, ready to be stored. `status: null` keeps the previous status (inconclusive). */
export interface CheckOutcome {
  readonly status: KeyStatus | null;
  readonly valid: boolean;
  readonly usable: boolean;
  readonly usability: Usability;
  readonly note: string;
  readonly error: string;
  readonly models: readonly string[] | null;
  readonly rateLimits: RateLimits;
  readonly credits: Credits | null;
  /** A refreshed OAuth blob to store in place of the old one. */
  readonly rotatedValue?: string;
  /** When to check the key again ahead of the schedule (a spent daily limit resets then; ms). */
  readonly recheckAt?: number;
}

const NO_LIMITS: RateLimits = { rpm: null, tpm: null, rpd: null };

/** A check that could not reach a verdict on the key (network, refused target, upstream 5xx). */
export function errorOutcome(error: string): CheckOutcome {
  return {
    status: "error",
    valid: false,
    usable: false,
    usability: "unknown",
    note: "",
    error,
    models: null,
    rateLimits: NO_LIMITS,
    credits: null,
  };
}

/** The upstream refused the key. */
export function invalidOutcome(error: string): CheckOutcome {
  return { ...errorOutcome(error), status: "invalid", usability: "auth_failed" };
}

const QUOTA_WORDS =
  /quota|insufficient|billing|exceeded|credit|balance|spending limit|payment required|out of funds/i;

/** True when an error body reads as "no money or quota left" rather than "bad key". */
export function looksLikeQuota(body: string): boolean {
  return QUOTA_WORDS.test(body.slice(0, 4000));
}

function intHeader(headers: Headers, names: readonly string[]): number | null {
  for (const name of names) {
    const value = headers.get(name);
    if (value === null) continue;
    const n = Number.parseInt(value.split(",")[0].trim(), 10);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return null;
}

/** Request and token limits announced in `x-ratelimit-*` style headers. */
export function rateLimitsFrom(headers: Headers): RateLimits {
  return {
    rpm: intHeader(headers, [
      "x-ratelimit-limit-requests",
      "x-ratelimit-requests-limit",
      "ratelimit-requests-limit",
      "anthropic-ratelimit-requests-limit",
    ]),
    tpm: intHeader(headers, [
      "x-ratelimit-limit-tokens",
      "x-ratelimit-tokens-limit",
      "ratelimit-tokens-limit",
      "anthropic-ratelimit-tokens-limit",
    ]),
    rpd: intHeader(headers, ["x-ratelimit-requests-per-day", "x-ratelimit-limit-requests-per-day"]),
  };
}

/** OpenRouter-style credit headers. */
export function creditsFromHeaders(headers: Headers): Credits | null {
  const num = (name: string) => {
    const v = headers.get(name);
    const n = v === null ? NaN : Number(v);
    return Number.isFinite(n) ? n : null;
  };
  const credits = {
    remaining: num("x-credits-remaining"),
    total: num("x-credits-limit"),
    used: num("x-credits-used"),
  };
  return credits.remaining === null && credits.total === null && credits.used === null ? null : credits;
}

/** Model ids from a model list (OpenAI `data[]`, `models[]` with `id` or `name`, Google `models/…`). */
export function modelsFrom(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const o = body as Record<string, unknown>;
  const list = Array.isArray(o.data)
    ? o.data
    : Array.isArray(o.models)
    ? o.models
    : Array.isArray(body)
    ? body
    : [];
  const ids: string[] = [];
  for (const item of list) {
    if (typeof item === "string") ids.push(item);
    else if (typeof item === "object" && item !== null) {
      const m = item as Record<string, unknown>;
      const id = typeof m.id === "string" ? m.id : typeof m.name === "string" ? m.name : null;
      if (id !== null) ids.push(id.replace(/^models\//, ""));
    }
  }
  return ids.slice(0, 2000);
}

/** The model the usability probe asks for: the preferred cheap one when listed, else the first text model. */
export function probeModel(preferred: string | undefined, listed: readonly string[] | null): string | null {
  if (preferred !== undefined && (listed === null || listed.length === 0 || listed.includes(preferred))) {
    return preferred;
  }
  const media = /embed|whisper|tts|dall-e|image|audio|moderation|rerank|speech|vision-preview/i;
  return listed?.find((m) => !media.test(m)) ?? null;
}

/** Judges the probe's answer: usable, out of quota, rate limited, refused, or restricted. */
export function probeVerdict(
  status: number,
  body: string,
): { readonly usable: boolean; readonly usability: Usability; readonly note: string } {
  if (status >= 200 && status < 300) return { usable: true, usability: "usable", note: "" };
  if (status === 402 || (status !== 429 && looksLikeQuota(body))) {
    return { usable: false, usability: "no_quota", note: `probe answered ${status}: no quota or credit` };
  }
  if (status === 401 || status === 403) {
    return { usable: false, usability: "auth_failed", note: `probe refused (${status})` };
  }
  if (status === 429) return { usable: false, usability: "rate_limited", note: "probe rate limited (429)" };
  if (status === 404 || /model.{0,20}not.{0,5}(found|exist)/i.test(body)) {
    return { usable: true, usability: "unknown", note: "probe model not offered; key accepted" };
  }
  return { usable: false, usability: "restricted", note: `probe answered ${status}` };
}

/** Health from credits and limits: healthy < warning < critical < exhausted. */
export function healthOf(credits: Credits | null, limits: RateLimits): string {
  const rank = ["healthy", "warning", "critical", "exhausted"];
  let level = 0;
  const at = (n: number) => (level = Math.max(level, n));
  if (credits?.remaining !== null && credits?.remaining !== undefined) {
    if (credits.remaining <= 0) at(3);
    else if (credits.remaining <= 1) at(2);
    else if (credits.remaining <= 5) at(1);
    if (credits.total !== null && credits.total > 0) {
      const share = credits.remaining / credits.total;
      if (share <= 0.05) at(2);
      else if (share <= 0.2) at(1);
    }
  }
  if (limits.rpm !== null) at(limits.rpm <= 1 ? 2 : limits.rpm <= 5 ? 1 : 0);
  if (limits.tpm !== null) at(limits.tpm <= 100 ? 2 : limits.tpm <= 1000 ? 1 : 0);
  if (limits.rpd !== null) at(limits.rpd <= 10 ? 2 : limits.rpd <= 50 ? 1 : 0);
  return rank[level];
}
