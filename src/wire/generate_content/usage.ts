import type { Usage } from "../../model/mod.ts";
import type { GeminiUsage } from "./schema.ts";

/**
 * Gemini usageMetadata → neutral usage. The prompt total includes cached tokens (a subset) and any
 * tool-use prompt; thoughts are billed as output, so they are added to it and reported as reasoning.
 */
export function decodeUsage(meta: GeminiUsage): Usage {
  const thoughts = meta.thoughtsTokenCount ?? 0;
  return {
    inputTotal: (meta.promptTokenCount ?? 0) + (meta.toolUsePromptTokenCount ?? 0),
    cacheRead: meta.cachedContentTokenCount ?? 0,
    cacheWrite: 0,
    output: (meta.candidatesTokenCount ?? 0) + thoughts,
    reasoning: thoughts,
  };
}

/** Neutral usage → Gemini usageMetadata (candidates exclude thoughts, as Gemini reports them). */
export function encodeUsage(usage: Usage): Record<string, number> {
  const out: Record<string, number> = {
    promptTokenCount: usage.inputTotal,
    candidatesTokenCount: Math.max(usage.output - usage.reasoning, 0),
    totalTokenCount: usage.inputTotal + usage.output,
  };
  if (usage.cacheRead > 0) out.cachedContentTokenCount = usage.cacheRead;
  if (usage.reasoning > 0) out.thoughtsTokenCount = usage.reasoning;
  return out;
}
