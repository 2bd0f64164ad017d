import type { Usage } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function details(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * Reads a chat-completions `usage` object; undefined when it carries no token counts. Cached tokens
 * come from `prompt_tokens_details.cached_tokens` or DeepSeek's `prompt_cache_hit_tokens`.
 */
export function decodeUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  if (value.prompt_tokens === undefined && value.completion_tokens === undefined) return undefined;
  const prompt = details(value.prompt_tokens_details);
  const completion = details(value.completion_tokens_details);
  const cacheRead = count(prompt.cached_tokens) || count(value.prompt_cache_hit_tokens) ||
    count(value.cached_tokens);
  const cacheWrite = count(prompt.cache_write_tokens) || count(prompt.cache_creation_tokens) ||
    count(value.cache_write_tokens) || count(value.cache_creation_input_tokens);
  const output = count(value.completion_tokens);
  // The invariant says cache buckets are subsets of the input total; never report less than them.
  const inputTotal = Math.max(count(value.prompt_tokens), cacheRead + cacheWrite);
  const reasoning = count(completion.reasoning_tokens) || count(value.reasoning_tokens);
  return { inputTotal, cacheRead, cacheWrite, output, reasoning };
}

/** Writes neutral usage as a chat-completions `usage` object (with cached and reasoning details). */
export function encodeUsage(usage: Usage): Record<string, unknown> {
  const promptDetails: Record<string, number> = { cached_tokens: usage.cacheRead };
  if (usage.cacheWrite > 0) promptDetails.cache_write_tokens = usage.cacheWrite;
  return {
    prompt_tokens: usage.inputTotal,
    completion_tokens: usage.output,
    total_tokens: usage.inputTotal + usage.output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}
