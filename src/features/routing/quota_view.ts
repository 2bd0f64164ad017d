import type { Headroom } from "../../routing/mod.ts";
import type { AccountQuotaState } from "./contract.ts";

/** An account's headroom as the Routing screen shows it; null when nothing is known about its limits. */
export function quotaView(headroom: Headroom | undefined): AccountQuotaState | null {
  if (headroom === undefined || headroom.windows.length === 0) return null;
  return {
    headroom: headroom.fraction === null ? null : round3(headroom.fraction),
    reset_at: headroom.resetAtMs,
    deprioritised: headroom.fraction !== null && headroom.fraction <= 0,
    reason: headroom.reason,
    windows: headroom.windows.map((w) => ({
      id: w.id,
      source: w.source,
      unit: w.unit,
      limit: w.limit,
      remaining: w.remaining,
      headroom: w.headroom === null ? null : round3(w.headroom),
      reset_at: w.resetAtMs,
      rejected: w.rejected,
    })),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
