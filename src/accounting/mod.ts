/** Accounting: prices (builtins + overrides, progressive match), cost, budgets, token estimates. */
export { BUILTIN_PRICES, type ImagePrices, type Price } from "./price.ts";
export { BUILTIN_KIND_PRICES } from "./kind_prices.ts";
export {
  type AudioBill,
  embeddingCost,
  type ImageBill,
  imageCost,
  imagePrice,
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
export { dayStartMs, isValidTimeZone, secondsUntilMidnight } from "./local_day.ts";
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
