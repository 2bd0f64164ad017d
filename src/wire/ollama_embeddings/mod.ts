/** The Ollama embeddings wire format (`/api/embed`, legacy `/api/embeddings`; upstreams via `/api/embed`). */
import type { EmbeddingsCodecParts } from "../embeddings_codec.ts";
import { MAX_EMBEDDING_INPUTS } from "../shared/embeddings_common.ts";
import { decodeOllamaEmbeddingsRequest, encodeOllamaEmbeddingsRequest } from "./request.ts";
import { decodeOllamaEmbeddingsResponse, encodeOllamaEmbeddingsResponse } from "./response.ts";

/** The Ollama embeddings codec, without its error envelope (the local runner's; see src/wire/embeddings.ts). */
export const ollamaEmbeddingsParts: EmbeddingsCodecParts = {
  format: "ollama",
  // Ollama batches any number of inputs itself; the client-side limit is the only one.
  capabilities: { maxInputsPerCall: MAX_EMBEDDING_INPUTS, tokenInputs: false },
  decodeRequest: decodeOllamaEmbeddingsRequest,
  encodeRequest: encodeOllamaEmbeddingsRequest,
  decodeResponse: decodeOllamaEmbeddingsResponse,
  encodeResponse: encodeOllamaEmbeddingsResponse,
};
