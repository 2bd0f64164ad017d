/** Accounting: prices (builtins + overrides, progressive match), cost, budgets, token estimates. */
export { BUILTIN_PRICES, type Price } from "./price.ts";
export { buildPriceTable, lookupPrice, type PriceMatch, type PriceTable } from "./price_table.ts";
export { costOf } from "./cost.ts";
export {
  type BudgetInput,
  type BudgetState,
  type BudgetStatus,
  budgetStatus,
  DEFAULT_WARN_PCT,
} from "./budget.ts";
export { dayStartMs, isValidTimeZone, localTimeZone, secondsUntilMidnight } from "./local_day.ts";
export {
  countTextTokens,
  estimateRequestTokens,
  estimateTokens,
  EXACT_CHARS,
  IMAGE_TOKENS,
  loadTokenizer,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  requestTexts,
  tokenizerLoaded,
} from "./estimate.ts";
export { nextTurn, type Pacer, SLICE_MS, timePacer } from "./pacer.ts";
export { imageSize, imageTokens, UNKNOWN_IMAGE_TOKENS } from "./image_tokens.ts";
