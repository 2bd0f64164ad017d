/** The Gemini embeddings wire format (`models/{m}:embedContent` and `:batchEmbedContents`, both sides). */
import type { EmbeddingsCodecParts } from "../embeddings_codec.ts";
import { decodeGeminiEmbeddingsRequest, encodeGeminiEmbeddingsRequest, GEMINI_MAX_BATCH } from "./request.ts";
import { decodeGeminiEmbeddingsResponse, encodeGeminiEmbeddingsResponse } from "./response.ts";

/** The Gemini embeddings codec, without its error envelope (the generate-content one; see src/wire/embeddings.ts). */
export const geminiEmbeddingsParts: EmbeddingsCodecParts = {
  format: "gemini",
  capabilities: { maxInputsPerCall: GEMINI_MAX_BATCH, tokenInputs: false },
  decodeRequest: decodeGeminiEmbeddingsRequest,
  encodeRequest: encodeGeminiEmbeddingsRequest,
  decodeResponse: decodeGeminiEmbeddingsResponse,
  encodeResponse: encodeGeminiEmbeddingsResponse,
};

export { GEMINI_DEFAULT_PREFIX, GEMINI_MAX_BATCH } from "./request.ts";
