import { readNumber, readResetAt } from "./limit_values.ts";

/** What a window counts: requests, tokens, or only a used percentage (subscription windows). */
export type LimitUnit = "requests" | "tokens" | "percent";

/** One limit window an upstream reported for an account, normalised; raw numbers kept where given. */
export interface LimitWindow {
  /** Stable name: `requests`, `tokens`, `input_tokens`, `output_tokens`, `5h`, `7d`, `7d_oi`, `primary`… */
  readonly id: string;
  readonly unit: LimitUnit;
  readonly limit: number | null;
  readonly remaining: number | null;
  /** Share used, 0..1, reported or derived from limit and remaining. */
  readonly usedFraction: number | null;
  /** When the window refills (epoch ms), when known. */
  readonly resetAtMs: number | null;
  /** The window's length, when the upstream says it or it is fixed (5 h, 7 d). */
  readonly windowMs: number | null;
  /** The upstream refused this window (unified `rejected`, Codex at 100 %). */
  readonly rejected: boolean;
}

/** A header by lower-case name, or null (what executors and mocks both offer). */
export type HeaderLookup = (name: string) => string | null;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const OPENAI_SUFFIXES = ["requests", "tokens"] as const;
const ANTHROPIC_BUCKETS = ["requests", "tokens", "input-tokens", "output-tokens"] as const;
/** Unified subscription windows and their fixed lengths. */
const UNIFIED_WINDOWS = [["5h", 5 * HOUR_MS], ["7d", 7 * DAY_MS], ["7d_oi", 7 * DAY_MS]] as const;
const CODEX_WINDOWS = ["primary", "secondary"] as const;

/**
 * Every limit window one upstream answer reports, from any header family it uses: OpenAI-style
 * `x-ratelimit-*` (with or without the `-requests`/`-tokens` suffix), `anthropic-ratelimit-*`, the
 * Claude subscription `anthropic-ratelimit-unified-*`, and Codex `x-codex-primary|secondary-*`.
 * An answer without any of them costs a handful of lookups and returns an empty list.
 */
export function readLimitHeaders(header: HeaderLookup, now: number): LimitWindow[] {
  const out: LimitWindow[] = [];
  for (const suffix of OPENAI_SUFFIXES) {
    pushCounted(out, suffix, header(`x-ratelimit-remaining-${suffix}`), () => ({
      limit: header(`x-ratelimit-limit-${suffix}`),
      reset: header(`x-ratelimit-reset-${suffix}`),
    }), now);
  }
  if (out.length === 0) {
    pushCounted(out, "requests", header("x-ratelimit-remaining"), () => ({
      limit: header("x-ratelimit-limit"),
      reset: header("x-ratelimit-reset"),
    }), now);
  }
  for (const bucket of ANTHROPIC_BUCKETS) {
    pushCounted(out, bucket.replace("-", "_"), header(`anthropic-ratelimit-${bucket}-remaining`), () => ({
      limit: header(`anthropic-ratelimit-${bucket}-limit`),
      reset: header(`anthropic-ratelimit-${bucket}-reset`),
    }), now);
  }
  const unified = header("anthropic-ratelimit-unified-status");
  if (unified !== null) readUnified(out, header, unified, now);
  for (const name of CODEX_WINDOWS) readCodex(out, header, name, now);
  return out;
}

function pushCounted(
  out: LimitWindow[],
  id: string,
  remainingText: string | null,
  rest: () => { limit: string | null; reset: string | null },
  now: number,
): void {
  const remaining = readNumber(remainingText);
  if (remaining === null) return;
  const { limit: limitText, reset } = rest();
  const limit = readNumber(limitText);
  out.push({
    id,
    unit: id === "requests" ? "requests" : "tokens",
    limit,
    remaining: Math.max(remaining, 0),
    usedFraction: limit !== null && limit > 0 ? clampFraction(1 - remaining / limit) : null,
    resetAtMs: readResetAt(reset, now),
    windowMs: null,
    rejected: false,
  });
}

function readUnified(out: LimitWindow[], header: HeaderLookup, status: string, now: number): void {
  const before = out.length;
  for (const [id, windowMs] of UNIFIED_WINDOWS) {
    const windowStatus = header(`anthropic-ratelimit-unified-${id}-status`);
    const utilization = readNumber(header(`anthropic-ratelimit-unified-${id}-utilization`));
    const reset = header(`anthropic-ratelimit-unified-${id}-reset`);
    if (windowStatus === null && utilization === null && reset === null) continue;
    out.push({
      id,
      unit: "percent",
      limit: null,
      remaining: null,
      usedFraction: utilization === null ? null : clampFraction(utilization),
      resetAtMs: readResetAt(reset, now),
      windowMs,
      rejected: windowStatus?.trim().toLowerCase() === "rejected",
    });
  }
  // A rejection naming no window still has the overall reset: keep it as its own window.
  const rejected = status.trim().toLowerCase() === "rejected";
  if (rejected && !out.slice(before).some((w) => w.rejected)) {
    out.push({
      id: "unified",
      unit: "percent",
      limit: null,
      remaining: null,
      usedFraction: 1,
      resetAtMs: readResetAt(header("anthropic-ratelimit-unified-reset"), now),
      windowMs: null,
      rejected: true,
    });
  }
}

function readCodex(out: LimitWindow[], header: HeaderLookup, name: string, now: number): void {
  const percent = readNumber(header(`x-codex-${name}-used-percent`));
  if (percent === null) return;
  const minutes = readNumber(header(`x-codex-${name}-window-minutes`));
  const resetAt = header(`x-codex-${name}-reset-at`);
  const resetAfter = readNumber(header(`x-codex-${name}-reset-after-seconds`));
  const resetAtMs = resetAt !== null
    ? readResetAt(resetAt, now)
    : resetAfter !== null && resetAfter >= 0
    ? now + Math.round(resetAfter * 1000)
    : null;
  out.push({
    id: name,
    unit: "percent",
    limit: null,
    remaining: null,
    usedFraction: clampFraction(percent / 100),
    resetAtMs,
    windowMs: minutes !== null && minutes > 0 ? minutes * 60_000 : null,
    rejected: percent >= 100,
  });
}

function clampFraction(value: number): number {
  return Math.min(Math.max(value, 0), 1);
}

/**
 * The instant an exhausted account can be used again according to these windows: the latest reset
 * among windows that were rejected or have nothing left, with a reset still ahead. A rejection of the
 * model-specific `7d_oi` window alone is left out: it bars one model family, not the account.
 */
export function exhaustedUntil(windows: readonly LimitWindow[], now: number): number | null {
  const exhausted = windows.filter((w) => w.rejected || w.remaining === 0);
  if (exhausted.length > 0 && exhausted.every((w) => w.id === "7d_oi")) return null;
  let latest: number | null = null;
  for (const w of exhausted) {
    if (w.id === "7d_oi" || w.resetAtMs === null || w.resetAtMs <= now) continue;
    latest = latest === null ? w.resetAtMs : Math.max(latest, w.resetAtMs);
  }
  return latest;
}
