/**
 * Credit endpoints (pure): where the upstreams that expose a balance put it, and what their answers mean
 * for a key. OpenRouter `GET /key` (a key's own limit, with a daily, weekly or monthly reset), DeepSeek
 * `GET /user/balance` and Moonshot `GET /users/me/balance` (prepaid balances). Amounts are USD; CNY
 * balances are converted at a fixed rate (the reference's 0.138), good enough to rank keys and to tell
 * empty from not empty.
 */
import type { Credits } from "./check_outcome.ts";

/** Which credit endpoint a catalog provider has. */
export type CreditSource = "openrouter_key" | "deepseek_balance" | "moonshot_balance";

/** USD per CNY, for balances an upstream reports in yuan. */
export const CNY_USD = 0.138;

/** What a credit endpoint said about a key. */
export type CreditReading =
  /** The endpoint refused the key (OpenRouter answers 401/403 to a dead key here too). */
  | { readonly kind: "invalid"; readonly error: string }
  /** Nothing usable (an error status, an unknown shape): the check goes on without it. */
  | { readonly kind: "unknown" }
  | {
    readonly kind: "credits";
    readonly credits: Credits;
    /** The key's daily limit is spent: `daily_exhausted` until `resetsAt` (next 00:00 UTC). */
    readonly dailyExhausted: boolean;
    /** No credit left at all (a prepaid balance at zero, a weekly/monthly/total limit spent). */
    readonly empty: boolean;
    readonly resetsAt: number | null;
    readonly note: string;
  };

/** The credit endpoint's URL for a key checked at `baseUrl` (the provider's API base, usually `…/v1`). */
export function creditUrl(source: CreditSource, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  switch (source) {
    case "openrouter_key":
      return `${base}/key`;
    case "deepseek_balance":
      // DeepSeek's balance lives beside /v1, not under it.
      return `${base.replace(/\/v1$/, "")}/user/balance`;
    case "moonshot_balance":
      return `${base}/users/me/balance`;
  }
}

const amount = (v: unknown): number | null => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : NaN;
  return Number.isFinite(n) ? n : null;
};

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** The next 00:00 UTC after `now` (ms): when a daily limit resets. */
export function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

function openRouter(body: Record<string, unknown>, now: number): CreditReading {
  const data = body.data;
  if (typeof data !== "object" || data === null) return { kind: "unknown" };
  const d = data as Record<string, unknown>;
  const limit = amount(d.limit);
  const remaining = amount(d.limit_remaining);
  const usage = amount(d.usage);
  const daily = amount(d.usage_daily);
  const reset = typeof d.limit_reset === "string" ? d.limit_reset.toLowerCase() : null;
  // A key without a limit draws on the account's credit, which /key does not report: no figure then.
  if (limit === null) {
    return {
      kind: "credits",
      credits: { remaining: null, total: null, used: usage },
      dailyExhausted: false,
      empty: false,
      resetsAt: null,
      note: "",
    };
  }
  const left = remaining ?? (reset === "daily" && daily !== null ? limit - daily : null);
  const spent = left !== null && left <= 0;
  const dailyExhausted = reset === "daily" && (spent || (daily !== null && daily >= limit));
  return {
    kind: "credits",
    credits: { remaining: left === null ? null : round(Math.max(0, left)), total: limit, used: usage },
    dailyExhausted,
    empty: spent && !dailyExhausted,
    resetsAt: dailyExhausted ? nextUtcMidnight(now) : null,
    note: dailyExhausted
      ? `daily credit limit spent ($${round(daily ?? limit)} of $${limit}); checked again after 00:00 UTC`
      : spent
      ? `credit limit spent ($${limit}${reset ? `, resets ${reset}` : ""})`
      : "",
  };
}

function deepSeek(body: Record<string, unknown>): CreditReading {
  const infos = Array.isArray(body.balance_infos) ? body.balance_infos as Record<string, unknown>[] : [];
  const pick = infos.find((i) => i?.currency === "USD") ?? infos.find((i) => i?.currency === "CNY");
  if (pick === undefined) return { kind: "unknown" };
  const rate = pick.currency === "USD" ? 1 : CNY_USD;
  const total = amount(pick.total_balance);
  const granted = amount(pick.granted_balance) ?? 0;
  const topped = amount(pick.topped_up_balance) ?? 0;
  if (total === null) return { kind: "unknown" };
  const empty = total <= 0 || body.is_available === false;
  return {
    kind: "credits",
    credits: { remaining: round(total * rate), total: round((granted + topped) * rate), used: null },
    dailyExhausted: false,
    empty,
    resetsAt: null,
    note: empty ? "balance is empty" : "",
  };
}

function moonshot(body: Record<string, unknown>, cny: boolean): CreditReading {
  const data = body.data as Record<string, unknown> | undefined;
  const available = amount(data?.available_balance);
  if (available === null) return { kind: "unknown" };
  const rate = cny ? CNY_USD : 1;
  return {
    kind: "credits",
    credits: { remaining: round(available * rate), total: null, used: null },
    dailyExhausted: false,
    empty: available <= 0,
    resetsAt: null,
    note: available <= 0 ? "balance is empty" : "",
  };
}

/**
 * Judges a credit endpoint's answer. `url` tells Moonshot's yuan host (`.cn`) from its dollar one; `now`
 * gives a daily limit's reset.
 */
export function readCredit(
  source: CreditSource,
  answer: { readonly status: number; readonly text: string },
  url: string,
  now: number,
): CreditReading {
  if (source === "openrouter_key" && (answer.status === 401 || answer.status === 403)) {
    return { kind: "invalid", error: `Auth failed (${answer.status}) at the credit endpoint` };
  }
  if (answer.status < 200 || answer.status >= 300) return { kind: "unknown" };
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return { kind: "unknown" };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { kind: "unknown" };
  const o = body as Record<string, unknown>;
  switch (source) {
    case "openrouter_key":
      return openRouter(o, now);
    case "deepseek_balance":
      return deepSeek(o);
    case "moonshot_balance":
      return moonshot(o, new URL(url).hostname.endsWith(".cn"));
  }
}
