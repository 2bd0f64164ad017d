import type { LimitWindow } from "../../routing/mod.ts";

/**
 * Copilot's quota (`GET /copilot_internal/user`) as limit windows for routing and the Routing screen:
 * one per metered snapshot (premium interactions, chat, completions), refilling on the quota reset date.
 */
export function copilotQuotaWindows(body: unknown): LimitWindow[] {
  const record = (body ?? {}) as Record<string, unknown>;
  const snapshots = (record.quota_snapshots ?? {}) as Record<string, unknown>;
  const resetText = typeof record.quota_reset_date_utc === "string"
    ? record.quota_reset_date_utc
    : typeof record.quota_reset_date === "string"
    ? record.quota_reset_date
    : "";
  const reset = Date.parse(resetText);
  const windows: LimitWindow[] = [];
  for (const [name, value] of Object.entries(snapshots)) {
    const snap = (value ?? {}) as Record<string, unknown>;
    if (snap.unlimited === true) continue;
    const limit = numberOr(snap.entitlement);
    const remaining = numberOr(snap.remaining);
    const percentRemaining = numberOr(snap.percent_remaining);
    const usedFraction = limit !== null && limit > 0 && remaining !== null
      ? clamp(1 - remaining / limit)
      : percentRemaining !== null
      ? clamp(1 - percentRemaining / 100)
      : null;
    windows.push({
      id: `copilot_${name}`,
      unit: "requests",
      limit,
      remaining,
      usedFraction,
      resetAtMs: Number.isNaN(reset) ? null : reset,
      windowMs: null,
      rejected: remaining !== null && remaining <= 0 && snap.overage_permitted !== true,
    });
  }
  return windows;
}

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
