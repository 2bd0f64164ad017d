/** Per-attempt adjustments: fit the neutral request to one upstream model and client. */
export type { AdjustTarget, ClientKind } from "./target.ts";
export { bareModelName, capabilitiesFor, UNKNOWN_CAPABILITIES } from "./capabilities.ts";
export type { ModelCapabilities, ThinkingFormat } from "./capabilities.ts";
export { parseThinkingSuffix } from "./thinking_suffix.ts";
export { ANTHROPIC_MIN_BUDGET, applyThinkingIntent, effortForBudget } from "./thinking_intent.ts";
export { IMAGE_PLACEHOLDER, stripUnsupportedImages } from "./strip_images.ts";
export {
  IMAGE_TIMEOUT_MS,
  imagesToPrefetch,
  MAX_IMAGE_BYTES,
  prefetchImages,
  systemPrefetchDeps,
} from "./image_prefetch.ts";
export type { PrefetchDeps, PrefetchResult } from "./image_prefetch.ts";
export { isPrivateHost } from "./private_address.ts";
export { dedupeTools } from "./dedupe_tools.ts";
export { betasFor, normalizeClaudeCode } from "./claude_code.ts";
export { injectReasoningContent, REASONING_PLACEHOLDER } from "./reasoning_content.ts";
export { detectClient } from "./detect_client.ts";
export { ADJUSTMENTS, applyAdjustments } from "./apply.ts";
export type { AdjustedRequest, Adjustment } from "./apply.ts";
