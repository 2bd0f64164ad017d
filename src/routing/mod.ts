/** Routing: model string → attempts, combos, cooldown policy, error classification, allowlists. Pure. */
export type { Account, Attempt, Combo, ComboStrategy } from "./types.ts";
export { type ModelRef, parseModelRef } from "./model_ref.ts";
export { buildRoutingTable, canonicalModel, canonicalPrefix, type RoutingTable } from "./routing_table.ts";
export {
  type ComboCursor,
  type CooldownCause,
  type CooldownEntry,
  emptyRoutingState,
  type RoutingState,
} from "./routing_state.ts";
export * from "./cooldown_policy.ts";
export {
  classifyUpstreamFailure,
  type FailureClassification,
  MIN_RETRY_AFTER_MS,
  parseRetryAfter,
  type UpstreamFailure,
} from "./classify.ts";
export {
  exhaustedUntil,
  type HeaderLookup,
  type LimitUnit,
  type LimitWindow,
  readLimitHeaders,
} from "./limit_headers.ts";
export { resetFromErrorBody } from "./limit_body.ts";
export { readDuration, readResetAt } from "./limit_values.ts";
export {
  type AccountLimits,
  type QuotaMetric,
  type QuotaRule,
  type QuotaWindowKind,
  windowBounds,
} from "./quota_windows.ts";
export {
  assessHeadroom,
  type Headroom,
  type LocalCounts,
  OBSERVED_TTL_MS,
  type ObservedLimits,
  type QuotaWindowView,
} from "./headroom.ts";
export {
  type HeadroomLookup,
  isSpent,
  orderByHeadroom,
  preferAccount,
  RANKED_AHEAD,
} from "./headroom_order.ts";
export { cacheAffinityKey } from "./cache_affinity_key.ts";
export { hasRateLimitMarker, RATE_LIMIT_MARKERS } from "./body_markers.ts";
export {
  type ActiveCooldown,
  activeCooldowns,
  adoptCooldown,
  applyFailure,
  applySuccess,
  clearCooldowns,
  isCooling,
  restoreCooldowns,
} from "./cooldowns.ts";
export { expandModel, type Resolution, resolveAttempts, type ResolveOptions } from "./resolve.ts";
export { allCoolingMessage, exhaustedMessage } from "./messages.ts";
export { filterModelList, isModelAllowed, stripThinkingSuffix } from "./allowlist.ts";
export { clampMinPanel, JUDGE_INSTRUCTION, judgeRequest, panelRequest } from "./fusion.ts";
export {
  type AccountCursor,
  type AccountOrderOptions,
  type AccountStrategy,
  orderAccounts,
} from "./account_order.ts";
export {
  type DeclaredKinds,
  kindOfModel,
  mayServe,
  type MediaKind,
  mediaKindLabel,
  type ModelKind,
  modelKindOf,
} from "./media_kind.ts";
