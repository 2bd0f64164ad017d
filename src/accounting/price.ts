/**
 * USD per million tokens for one model (spec "Pricing entry"), and for models billed by other units (images,
 * seconds of audio, characters of speech, rerank search units) those prices beside them. Embedding models are token models whose
 * output price is 0. Cost functions for each kind: src/accounting/kind_cost.ts.
 */
export interface Price {
  readonly inputPerMtok: number;
  readonly outputPerMtok: number;
  readonly cacheCreationPerMtok: number;
  readonly cacheReadPerMtok: number;
  /** USD per generated image by variant (`<quality>@<size>` and fallbacks, see `imagePrice`). */
  readonly perImage?: ImagePrices;
  /** USD per second of input audio (transcription and translation billed by duration). */
  readonly perSecond?: number;
  /** USD per million input characters (speech billed by characters). */
  readonly perMchar?: number;
  /** USD per search unit (Cohere bills rerank calls by search unit: one query over up to 100 documents). */
  readonly perSearchUnit?: number;
}

/**
 * Per-image prices keyed by variant, most specific first when looked up: `<quality>@<size>` (`hd@1024x1792`),
 * `<quality>` (`hd`), `@<size>` (`@1024x1024`), then `*` for any image.
 */
export type ImagePrices = Readonly<Record<string, number>>;

function p(input: number, output: number, cacheCreation: number, cacheRead: number): Price {
  return {
    inputPerMtok: input,
    outputPerMtok: output,
    cacheCreationPerMtok: cacheCreation,
    cacheReadPerMtok: cacheRead,
  };
}

/** The spec's 28 builtin prices; overrides from config and the database win over them. */
export const BUILTIN_PRICES: Readonly<Record<string, Price>> = Object.freeze({
  "claude-opus-4-20250514": p(15.0, 75.0, 18.75, 1.5),
  "claude-sonnet-4-20250514": p(3.0, 15.0, 3.75, 0.3),
  "claude-3.7-sonnet-20250219": p(3.0, 15.0, 3.75, 0.3),
  "claude-3-5-sonnet-20241022": p(3.0, 15.0, 3.75, 0.3),
  "claude-3-5-haiku-20241022": p(0.8, 4.0, 1.0, 0.08),
  "claude-3-opus-20240229": p(15.0, 75.0, 18.75, 1.5),
  "gpt-4o": p(2.5, 10.0, 0.0, 1.25),
  "gpt-4o-mini": p(0.15, 0.6, 0.0, 0.075),
  "o3": p(10.0, 40.0, 0.0, 0.0),
  "o4-mini": p(1.1, 4.4, 0.0, 0.0),
  "gpt-4.1": p(2.0, 8.0, 0.0, 0.5),
  "gpt-4.1-mini": p(0.4, 1.6, 0.0, 0.1),
  "gpt-4.1-nano": p(0.1, 0.4, 0.0, 0.025),
  "gemini-2.5-pro": p(1.25, 10.0, 0.0, 0.31),
  "gemini-2.0-flash": p(0.1, 0.4, 0.0, 0.025),
  "gemini-2.0-flash-lite": p(0.075, 0.3, 0.0, 0.01875),
  "gemini-1.5-pro": p(1.25, 5.0, 0.0, 0.3125),
  "gemini-1.5-flash": p(0.075, 0.3, 0.0, 0.01875),
  "gemini-1.5-flash-8b": p(0.0375, 0.15, 0.0, 0.009375),
  "deepseek-chat": p(0.27, 1.1, 0.0, 0.07),
  "deepseek-reasoner": p(0.55, 2.19, 0.0, 0.14),
  "llama-3.3-70b-instruct": p(0.6, 0.6, 0.0, 0.0),
  "llama-3.1-405b-instruct": p(3.0, 3.0, 0.0, 0.0),
  "mistral-large-2411": p(2.0, 6.0, 0.0, 0.5),
  "qwen-max": p(1.6, 6.4, 0.0, 0.4),
  "qwen-plus": p(0.4, 1.2, 0.0, 0.1),
  "qwen-turbo": p(0.05, 0.2, 0.0, 0.0125),
  "glm-4.7": p(0.6, 2.2, 0.0, 0.0),
});
