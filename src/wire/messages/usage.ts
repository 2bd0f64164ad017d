import type { Usage } from "../../model/mod.ts";
import { uncachedInput } from "../../model/mod.ts";

/** The messages format's disjoint usage buckets, as numbers (absent fields are 0). */
export interface UsageBuckets {
  readonly input: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly output: number;
}

/** The usage fields this codec maps; anything else in a usage object travels in extra. */
export const USAGE_KEYS: ReadonlySet<string> = new Set([
  "input_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "output_tokens",
]);

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Reads the four buckets of a wire usage object. */
export function readBuckets(usage: Readonly<Record<string, unknown>> | null | undefined): UsageBuckets {
  return {
    input: count(usage?.input_tokens),
    cacheCreation: count(usage?.cache_creation_input_tokens),
    cacheRead: count(usage?.cache_read_input_tokens),
    output: count(usage?.output_tokens),
  };
}

/**
 * Folds the disjoint buckets into the neutral invariant: `input_tokens` excludes cached tokens on
 * this wire, so the total is all three, and the cache buckets become subsets of it.
 */
export function foldUsage(buckets: UsageBuckets): Usage {
  return {
    inputTotal: buckets.input + buckets.cacheCreation + buckets.cacheRead,
    cacheRead: buckets.cacheRead,
    cacheWrite: buckets.cacheCreation,
    output: buckets.output,
    reasoning: 0,
  };
}

/** Neutral usage → the wire's disjoint buckets (`input_tokens` is the uncached part only). */
export function unfoldUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: uncachedInput(usage),
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: usage.output,
  };
}
