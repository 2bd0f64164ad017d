/**
 * Builtin prices of the common embedding, image, audio and rerank models, beside the spec's 28 chat builtins (which
 * stay exactly as the spec lists them). Overrides from config and the database win over these as over those.
 * Each number says where it came from; "list" means the vendor's own model page.
 */
import type { Price } from "./price.ts";

/** A token-priced model (embeddings: output 0). */
function tokens(input: number, output = 0): Price {
  return { inputPerMtok: input, outputPerMtok: output, cacheCreationPerMtok: 0, cacheReadPerMtok: 0 };
}

/** Builtin prices of non-chat models, keyed like BUILTIN_PRICES (lower-case ids, progressive match). */
export const BUILTIN_KIND_PRICES: Readonly<Record<string, Price>> = Object.freeze({
  // Embeddings, USD per 1M input tokens. OpenAI: developers.openai.com/api/docs/models/text-embedding-3-large
  // (quick comparison: 3-large $0.13, 3-small $0.02); ada-002 $0.10: openrouter.ai/openai/text-embedding-ada-002
  // and the OpenAI price table quoted at docs.praison.ai/docs/embeddings/providers/openai.
  "text-embedding-3-small": tokens(0.02),
  "text-embedding-3-large": tokens(0.13),
  "text-embedding-ada-002": tokens(0.10),
  // Google's launch post (developers.googleblog.com, "Gemini Embedding available in the Gemini API", quoted in
  // github.com/simonw/llm-gemini/issues/102): "$0.15 per 1M input tokens"; same on openrouter.ai and vercel.com.
  "gemini-embedding-001": tokens(0.15),
  // Free of charge on the Gemini API's price list while it was offered (deprecated 2026-01-14 per the same post).
  "text-embedding-004": tokens(0),

  // Images, USD per image. dall-e-3 / dall-e-2: OpenAI's price table as transcribed in
  // github.com/kevinhermawan/Canvas model-info.json (source openai.com/pricing) and docs.vectorshift.ai.
  "dall-e-3": {
    ...tokens(0),
    perImage: {
      "standard@1024x1024": 0.04,
      "standard@1024x1792": 0.08,
      "standard@1792x1024": 0.08,
      "hd@1024x1024": 0.08,
      "hd@1024x1792": 0.12,
      "hd@1792x1024": 0.12,
      // dall-e-3's defaults are standard quality at 1024x1024.
      "*": 0.04,
    },
  },
  "dall-e-2": {
    ...tokens(0),
    perImage: { "@256x256": 0.016, "@512x512": 0.018, "@1024x1024": 0.02, "*": 0.02 },
  },
  // gpt-image-1, list (developers.openai.com/api/docs/models/gpt-image-1): text input $5, image output $40 per
  // 1M tokens (used when the answer reports usage); per image low/medium/high $0.011/$0.042/$0.167 at
  // 1024x1024 and $0.016/$0.063/$0.25 at 1024x1536 and 1536x1024 (used when it does not).
  "gpt-image-1": {
    ...tokens(5, 40),
    perImage: {
      "low@1024x1024": 0.011,
      "low": 0.016,
      "medium@1024x1024": 0.042,
      "medium": 0.063,
      "high@1024x1024": 0.167,
      "high": 0.25,
      // The API's default quality is auto; bill an unknown one as medium, the middle of the range.
      "*": 0.042,
    },
  },

  // Gemini image output through generateContent, list (ai.google.dev/gemini-api/docs/pricing, "Gemini 2.5 Flash
  // Image"): $0.30 per 1M input tokens, $30 per 1M output tokens, an image being 1290 output tokens (~$0.039).
  // Its answers report usage, so the token prices apply.
  "gemini-2.5-flash-image": tokens(0.3, 30),

  // Audio. whisper-1, list (developers.openai.com/api/docs/models/whisper-1): $0.006 per minute.
  "whisper-1": { ...tokens(0), perSecond: 0.006 / 60 },
  // gpt-4o-transcribe, list (developers.openai.com/api/docs/models/gpt-4o-transcribe): $2.50 input, $10 output
  // per 1M tokens. gpt-4o-mini-transcribe (models/compare): $1.25 / $5. Their answers report token usage; the
  // per-second figures are OpenAI's "estimated cost per minute" ($0.006, $0.003; not re-checked here), used
  // only when an answer carries no usage.
  "gpt-4o-transcribe": { ...tokens(2.5, 10), perSecond: 0.006 / 60 },
  "gpt-4o-mini-transcribe": { ...tokens(1.25, 5), perSecond: 0.003 / 60 },
  // Speech, list (developers.openai.com/api/docs/models/tts-1 and tts-1-hd): $15 and $30 per 1M characters.
  "tts-1": { ...tokens(0), perMchar: 15 },
  "tts-1-hd": { ...tokens(0), perMchar: 30 },
  // gpt-4o-mini-tts, list (developers.openai.com/api/docs/models/gpt-4o-mini-tts): $0.60 per 1M text input
  // tokens, $12 per 1M audio output tokens. The speech endpoint reports no usage, so the cost is estimated from
  // the input (see speechCost): measured at ~6 audio tokens per text token by
  // github.com/sanand0/blog posts/2025/openai-tts-cost.md, i.e. about $0.0726 per 1k text tokens.
  "gpt-4o-mini-tts": tokens(0.6, 12),

  // Rerank. Cohere bills per search unit (one query over up to 100 documents): $2.00 per 1,000 searches for
  // rerank-v3.5 and the v3.0 models, Cohere's long-standing list price (cohere.com/pricing; not re-checked
  // here: OpenRouter lists rerank-v3.5 at $0.001 per search in 2026, openrouter.ai/cohere/rerank-v3.5).
  "rerank-v3.5": { ...tokens(0), perSearchUnit: 0.002 },
  "rerank-english-v3.0": { ...tokens(0), perSearchUnit: 0.002 },
  "rerank-multilingual-v3.0": { ...tokens(0), perSearchUnit: 0.002 },
  // Jina bills tokens: $0.045 per 1M for jina-reranker-v2-base-multilingual (agentset.ai's reranker table; Jina
  // sells token packs, so this is the pack price per million, not a list price).
  "jina-reranker-v2-base-multilingual": tokens(0.045),
});
