/** The OpenAI embeddings wire format (`POST /v1/embeddings`, client and upstream side). */
import type { EmbeddingsCodecParts } from "../embeddings_codec.ts";
import { MAX_EMBEDDING_INPUTS } from "../shared/embeddings_common.ts";
import { decodeOpenAiEmbeddingsRequest, encodeOpenAiEmbeddingsRequest } from "./request.ts";
import { decodeOpenAiEmbeddingsResponse, encodeOpenAiEmbeddingsResponse } from "./response.ts";

/** The OpenAI embeddings codec, without its error envelope (the chat-completions one; see src/wire/embeddings.ts). */
export const openAiEmbeddingsParts: EmbeddingsCodecParts = {
  format: "openai",
  // OpenAI's documented limit per call; compatible servers with a lower one set it in their preset.
  capabilities: { maxInputsPerCall: MAX_EMBEDDING_INPUTS, tokenInputs: true },
  decodeRequest: (body) => decodeOpenAiEmbeddingsRequest(body),
  encodeRequest: encodeOpenAiEmbeddingsRequest,
  decodeResponse: decodeOpenAiEmbeddingsResponse,
  encodeResponse: encodeOpenAiEmbeddingsResponse,
};
