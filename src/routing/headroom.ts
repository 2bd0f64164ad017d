import type { LimitUnit, LimitWindow } from "./limit_headers.ts";
import { type AccountLimits, windowBounds } from "./quota_windows.ts";

/** What the last upstream answers said about an account's windows, and when. */
export interface ObservedLimits {
  readonly windows: readonly LimitWindow[];
  readonly observedAt: number;
}

/** The gateway's own counts for an account (what configured limits are checked against). */
export interface LocalCounts {
  /** Attempts sent in the last 60 s. */
  readonly minute: number;
  /** When the oldest of those attempts leaves the minute. */
  readonly minuteFreesAt: number | null;
  /** Attempts sent this UTC day. */
  readonly day: number;
  /** Per configured quota (`<window>:<metric>`), what the current window has used. */
  readonly quotas: Readonly<Record<string, number>>;
}

/** One window of an account as the Routing screen shows it. */
export interface QuotaWindowView {
  readonly id: string;
  /** `upstream`: read from answers; `configured`: the operator's limit against the gateway's counts. */
  readonly source: "upstream" | "configured";
  readonly unit: LimitUnit;
  readonly limit: number | null;
  readonly remaining: number | null;
  /** Share still available, 0..1; null when the upstream gave nothing to compute it from. */
  readonly headroom: number | null;
  readonly resetAtMs: number | null;
  readonly rejected: boolean;
}

/** How much an account has left: its tightest window decides. */
export interface Headroom {
  /** 0..1 share left in the tightest window; null when no window is known (treated as full). */
  readonly fraction: number | null;
  /** When the tightest window refills, if known. */
  readonly resetAtMs: number | null;
  /** Why the account goes last (its tightest window is empty), or null when it has headroom. */
  readonly reason: string | null;
  readonly windows: readonly QuotaWindowView[];
  /** This assessment holds until then, unless a new answer or attempt changes the inputs. */
  readonly validUntil: number;
}

/** A window read without a reset instant is believed this long after the answer that carried it. */
export const OBSERVED_TTL_MS = 60_000;
const MINUTE_MS = 60_000;

/** Assesses an account's headroom from what upstreams said and its configured limits. */
export function assessHeadroom(
  observed: ObservedLimits | undefined,
  counts: LocalCounts | undefined,
  limits: AccountLimits | undefined,
  now: number,
): Headroom {
  const windows: QuotaWindowView[] = [];
  let validUntil = Infinity;
  const until = (at: number | null) => {
    if (at !== null && at > now) validUntil = Math.min(validUntil, at);
  };
  for (const w of observed?.windows ?? []) {
    const expires = w.resetAtMs ?? observed!.observedAt + OBSERVED_TTL_MS;
    // A window past its reset has refilled: what it said no longer holds.
    if (expires <= now) continue;
    until(expires);
    windows.push({
      id: w.id,
      source: "upstream",
      unit: w.unit,
      limit: w.limit,
      remaining: w.remaining,
      headroom: windowHeadroom(w),
      resetAtMs: w.resetAtMs,
      rejected: w.rejected,
    });
  }
  if (limits !== undefined) configuredWindows(windows, counts, limits, now, until);
  let tightest: QuotaWindowView | null = null;
  for (const w of windows) {
    if (w.headroom === null) continue;
    if (
      tightest === null || w.headroom < tightest.headroom! ||
      (w.headroom === tightest.headroom && earlier(w, tightest))
    ) {
      tightest = w;
    }
  }
  return {
    fraction: tightest?.headroom ?? null,
    resetAtMs: tightest?.resetAtMs ?? null,
    reason: tightest !== null && tightest.headroom! <= 0 ? exhaustedReason(tightest) : null,
    windows,
    validUntil,
  };
}

function configuredWindows(
  out: QuotaWindowView[],
  counts: LocalCounts | undefined,
  limits: AccountLimits,
  now: number,
  until: (at: number | null) => void,
): void {
  const counted = (id: string, unit: LimitUnit, limit: number, used: number, resetAtMs: number | null) => {
    until(resetAtMs);
    const remaining = Math.max(limit - used, 0);
    out.push({
      id,
      source: "configured",
      unit,
      limit,
      remaining,
      headroom: remaining / limit,
      resetAtMs,
      rejected: false,
    });
  };
  if (limits.rpm !== undefined && limits.rpm > 0) {
    const used = counts?.minute ?? 0;
    counted(
      "rpm",
      "requests",
      limits.rpm,
      used,
      used > 0 ? (counts?.minuteFreesAt ?? now + MINUTE_MS) : null,
    );
  }
  if (limits.rpd !== undefined && limits.rpd > 0) {
    counted("rpd", "requests", limits.rpd, counts?.day ?? 0, windowBounds("daily", now).end);
  }
  for (const rule of limits.quotas ?? []) {
    if (!(rule.limit > 0)) continue;
    const key = `${rule.window}:${rule.metric}`;
    counted(key, rule.metric, rule.limit, counts?.quotas[key] ?? 0, windowBounds(rule.window, now).end);
  }
}

function windowHeadroom(w: LimitWindow): number | null {
  if (w.rejected || w.remaining === 0) return 0;
  if (w.remaining !== null && w.limit !== null && w.limit > 0) return Math.min(w.remaining / w.limit, 1);
  if (w.usedFraction !== null) return 1 - w.usedFraction;
  return null;
}

function earlier(a: QuotaWindowView, b: QuotaWindowView): boolean {
  return a.resetAtMs !== null && (b.resetAtMs === null || a.resetAtMs < b.resetAtMs);
}

function exhaustedReason(w: QuotaWindowView): string {
  const name = w.source === "configured" ? `configured ${w.id} limit` : `upstream ${w.id} window`;
  if (w.rejected) return `${name} rejected`;
  if (w.limit !== null) return `${name} used up (${w.limit - (w.remaining ?? 0)} of ${w.limit})`;
  return `${name} used up`;
}
