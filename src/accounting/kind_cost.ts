/**
 * Cost of the non-chat kinds, each from the unit its models are billed in. Every function costs nothing for a
 * model without a price (null), as costOf does, and never reads a unit the price does not name.
 */
import type { Usage } from "../model/usage.ts";
import { costOf } from "./cost.ts";
import type { ImagePrices, Price } from "./price.ts";

const PER_MILLION = 1_000_000;

/** Embeddings: input tokens at the input rate (embedding models have no output). */
export function embeddingCost(inputTokens: number, price: Price | null): number {
  if (price === null) return 0;
  return Math.max(inputTokens, 0) * price.inputPerMtok / PER_MILLION;
}

/** The per-image price of a variant: `<quality>@<size>`, `<quality>`, `@<size>`, then `*`; undefined when none. */
export function imagePrice(prices: ImagePrices, quality?: string, size?: string): number | undefined {
  const q = quality?.toLowerCase();
  const s = size?.toLowerCase();
  const keys = [
    q !== undefined && s !== undefined ? `${q}@${s}` : undefined,
    q,
    s !== undefined ? `@${s}` : undefined,
    "*",
  ];
  for (const key of keys) {
    if (key !== undefined && Object.hasOwn(prices, key)) return prices[key];
  }
  return undefined;
}

/** What an image answer says about its cost. */
export interface ImageBill {
  readonly images: number;
  readonly quality?: string;
  readonly size?: string;
  /** Token usage, when the answer reported it (gpt-image-1); it wins over per-image prices. */
  readonly usage?: Usage;
}

/** Images: from reported token usage when the model has token prices, else per image of the variant. */
export function imageCost(bill: ImageBill, price: Price | null): number {
  if (price === null) return 0;
  if (bill.usage !== undefined && hasTokenPrices(price)) return costOf(bill.usage, price);
  if (price.perImage === undefined) return 0;
  return Math.max(bill.images, 0) * (imagePrice(price.perImage, bill.quality, bill.size) ?? 0);
}

/** What a transcription or translation answer says about its cost. */
export interface AudioBill {
  /** Seconds of input audio (the answer's `duration`, or `usage.seconds`). */
  readonly seconds?: number;
  /** Token usage, when the answer reported it (gpt-4o-transcribe); it wins over per-second prices. */
  readonly usage?: Usage;
}

/** Transcription and translation: reported tokens at token prices, else seconds at the per-second price. */
export function transcriptionCost(bill: AudioBill, price: Price | null): number {
  if (price === null) return 0;
  if (bill.usage !== undefined && hasTokenPrices(price)) return costOf(bill.usage, price);
  if (price.perSecond === undefined || bill.seconds === undefined) return 0;
  return Math.max(bill.seconds, 0) * price.perSecond;
}

/**
 * Audio tokens a token-priced speech model writes per input text token, measured on gpt-4o-mini-tts
 * (github.com/sanand0/blog posts/2025/openai-tts-cost.md); the speech endpoint reports no usage to bill by.
 */
export const SPEECH_AUDIO_TOKENS_PER_TEXT_TOKEN = 6;

/**
 * Speech: characters at the per-character price; for token-priced models (no per-character price) an
 * estimate from `inputTokens` (the gateway's count of the input text) and SPEECH_AUDIO_TOKENS_PER_TEXT_TOKEN.
 */
export function speechCost(characters: number, inputTokens: number, price: Price | null): number {
  if (price === null) return 0;
  if (price.perMchar !== undefined) return Math.max(characters, 0) * price.perMchar / PER_MILLION;
  const input = Math.max(inputTokens, 0);
  return (input * price.inputPerMtok + input * SPEECH_AUDIO_TOKENS_PER_TEXT_TOKEN * price.outputPerMtok) /
    PER_MILLION;
}

/** What a rerank answer says about its cost, and how many documents the request ranked. */
export interface RerankBill {
  readonly searchUnits?: number;
  readonly inputTokens?: number;
  readonly documents: number;
}

/** Documents one Cohere search unit covers (a query over up to 100 documents). */
export const DOCUMENTS_PER_SEARCH_UNIT = 100;

/**
 * Rerank: search units at the per-search-unit price (the answer's, else one per 100 documents, as Cohere
 * counts them); for token-priced models (no per-search-unit price) the reported input tokens.
 */
export function rerankCost(bill: RerankBill, price: Price | null): number {
  if (price === null) return 0;
  if (price.perSearchUnit !== undefined) {
    const units = bill.searchUnits ?? Math.ceil(Math.max(bill.documents, 1) / DOCUMENTS_PER_SEARCH_UNIT);
    return Math.max(units, 0) * price.perSearchUnit;
  }
  return Math.max(bill.inputTokens ?? 0, 0) * price.inputPerMtok / PER_MILLION;
}

function hasTokenPrices(price: Price): boolean {
  return price.inputPerMtok > 0 || price.outputPerMtok > 0;
}
