/** Accounting: prices (builtins + overrides, progressive match), cost, budgets, token estimates. */
export { BUILTIN_PRICES, type ImagePrices, type Price } from "./price.ts";
export { BUILTIN_KIND_PRICES } from "./kind_prices.ts";
export { isUsageKind, USAGE_KINDS, type UsageKind, usageKindOf } from "./usage_kind.ts";
export {
  type AudioBill,
  DOCUMENTS_PER_SEARCH_UNIT,
  embeddingCost,
  type ImageBill,
  imageCost,
  imagePrice,
  type RerankBill,
  rerankCost,
  SPEECH_AUDIO_TOKENS_PER_TEXT_TOKEN,
  speechCost,
  transcriptionCost,
} from "./kind_cost.ts";
export { buildPriceTable, lookupPrice, type PriceMatch, type PriceTable } from "./price_table.ts";
export { costOf } from "./cost.ts";
export {
  type BudgetInput,
  type BudgetState,
  type BudgetStatus,
  budgetStatus,
  DEFAULT_WARN_PCT,
} from "./budget.ts";
export {
  dayStartMs,
  isValidTimeZone,
  localDayNumber,
  localTimeZone,
  secondsUntilMidnight,
  startOfLocalDay,
} from "./local_day.ts";
export {
  alertWindowStart,
  type BudgetOwner,
  type BudgetPeriod,
  budgetPeriod,
  type BudgetPeriodName,
  type BudgetRejection,
  budgetRejection,
  type PeriodBudget,
  type PeriodBudgetStatus,
  periodStatus,
  type PeriodWindow,
  periodWindow,
  PeriodWindows,
  RollingSpend,
  worstBudget,
} from "./budget_period.ts";
export {
  countTextTokens,
  estimateRequestTokens,
  estimateTokens,
  EXACT_CHARS,
  IMAGE_TOKENS,
  loadTokenizer,
  MESSAGE_OVERHEAD_TOKENS,
  READ_CHARS,
  REPLY_PRIMING_TOKENS,
  requestTexts,
  tokenizerLoaded,
} from "./estimate.ts";
export { type Pacer, SLICE_MS, timePacer } from "./pacer.ts";
export { imageSize, imageTokens, UNKNOWN_IMAGE_TOKENS } from "./image_tokens.ts";
export {
  effectiveLimits,
  type LimitDimension,
  type LimitState,
  RATE_REFRESH_MS,
  RATE_STATE_IDLE_MS,
  type RateCounts,
  type RateDecision,
  RateLimiter,
  type RateLimits,
  type RatePermit,
  UNLIMITED,
} from "./rate_limiter.ts";
export {
  anthropicRateLimitHeaders,
  goDuration,
  openAiRateLimitHeaders,
  rateLimitHeaders,
  type RateLimitHeaderStyle,
  type RateLimitSnapshot,
  rfc3339Seconds,
} from "./rate_limit_headers.ts";
