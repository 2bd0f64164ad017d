import { invalidRequest } from "../../model/mod.ts";
import type { GenerationParams } from "../../model/mod.ts";
import { quoteValue } from "../shared/mod.ts";

/** Options with a neutral meaning; everything else stays Ollama-specific (num_ctx, mirostat, …). */
const NUMERIC_OPTIONS = {
  temperature: "temperature",
  top_p: "topP",
  top_k: "topK",
  seed: "seed",
  presence_penalty: "presencePenalty",
  frequency_penalty: "frequencyPenalty",
} as const satisfies Record<string, keyof GenerationParams>;

type NumericOption = keyof typeof NUMERIC_OPTIONS;

function isNumericOption(key: string): key is NumericOption {
  return Object.hasOwn(NUMERIC_OPTIONS, key);
}

function numberOption(key: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw invalidRequest(`options.${key}: expected a number, got ${quoteValue(value)}`);
  }
  return value;
}

function stopOption(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((s) => typeof s === "string")) return value;
  throw invalidRequest(`options.stop: expected a string or an array of strings`);
}

/** Neutral params plus the options that have no neutral meaning (kept for same-format trips). */
export interface DecodedOptions {
  readonly params: GenerationParams;
  readonly rest?: Record<string, unknown>;
}

/** Maps Ollama `options` to generation params; unknown keys are returned in `rest`. */
export function decodeOptions(options: Readonly<Record<string, unknown>> | null | undefined): DecodedOptions {
  const params: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === "num_predict") {
      const n = numberOption(key, value);
      // -1 (unlimited) and -2 (fill the context) are runner modes, not token caps.
      if (n >= 0) params.maxTokens = n;
      else rest[key] = n;
    } else if (key === "stop") {
      params.stop = stopOption(value);
    } else if (isNumericOption(key)) {
      params[NUMERIC_OPTIONS[key]] = numberOption(key, value);
    } else {
      rest[key] = value;
    }
  }
  return Object.keys(rest).length > 0 ? { params, rest } : { params };
}

/** Builds Ollama `options` from params over the runner-only options kept from the client; undefined when empty. */
export function encodeOptions(
  params: GenerationParams,
  kept: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = { ...kept };
  if (params.maxTokens !== undefined) options.num_predict = params.maxTokens;
  for (const [key, field] of Object.entries(NUMERIC_OPTIONS)) {
    const value = params[field];
    if (value !== undefined) options[key] = value;
  }
  if (params.stop !== undefined && params.stop.length > 0) options.stop = [...params.stop];
  return Object.keys(options).length > 0 ? options : undefined;
}
