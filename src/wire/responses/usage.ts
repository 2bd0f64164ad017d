import type { Usage } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

/** The Responses usage object as the API sends it. */
export interface WireUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Reads a Responses usage object; `input_tokens` is already the total with cached tokens a subset. */
export function usageFromWire(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const inputDetails = isRecord(value.input_tokens_details) ? value.input_tokens_details : {};
  const outputDetails = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  const inputTotal = count(value.input_tokens);
  return {
    inputTotal,
    cacheRead: Math.min(count(inputDetails.cached_tokens), inputTotal),
    cacheWrite: 0,
    output: count(value.output_tokens),
    reasoning: count(outputDetails.reasoning_tokens),
  };
}

/** Writes neutral usage as a Responses usage object. */
export function usageToWire(usage: Usage): WireUsage {
  return {
    input_tokens: usage.inputTotal,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.inputTotal + usage.output,
  };
}
