/**
 * The embeddings codec registry: one codec per embeddings format. Each format's folder holds its
 * translation; the error envelope is that vendor's chat surface's, taken here from its public face, so
 * an embeddings client gets its errors in the same shape as a chat client of the same SDK.
 */
import type { EmbeddingsFormat } from "../model/mod.ts";
import type { EmbeddingsCodec, EmbeddingsCodecParts } from "./embeddings_codec.ts";
import { chatCompletionsCodec } from "./chat_completions/mod.ts";
import { generateContentCodec } from "./generate_content/mod.ts";
import { localRunnerCodec } from "./local_runner/mod.ts";
import { openAiEmbeddingsParts } from "./openai_embeddings/mod.ts";
import { geminiEmbeddingsParts } from "./gemini_embeddings/mod.ts";
import { ollamaEmbeddingsParts } from "./ollama_embeddings/mod.ts";
import { modelNameProblem } from "./shared/limits.ts";
import { invalidAt } from "./shared/zod_issues.ts";

export type {
  EmbeddingsCall,
  EmbeddingsCapabilities,
  EmbeddingsCodec,
  EmbeddingsDecodeContext,
  EmbeddingsEncodeContext,
  EmbeddingsEndpoint,
  EncodedEmbeddingsRequest,
} from "./embeddings_codec.ts";
export {
  type Batch,
  mergeEmbeddingsResponses,
  mergeInOrder,
  splitBatches,
  splitEmbeddingsRequest,
} from "./shared/batches.ts";
export { vectorFromBase64, vectorToBase64 } from "./shared/vector_base64.ts";
export { MAX_EMBEDDING_INPUTS } from "./shared/embeddings_common.ts";

/** A codec whose requests are held to the shared model-name limit, like every chat surface's. */
function complete(parts: EmbeddingsCodecParts, encodeError: EmbeddingsCodec["encodeError"]): EmbeddingsCodec {
  return {
    ...parts,
    decodeRequest: (body, ctx) => {
      const request = parts.decodeRequest(body, ctx);
      const problem = modelNameProblem(request.model);
      if (problem !== undefined) throw invalidAt(["model"], problem);
      return request;
    },
    encodeError,
  };
}

const CODECS: Readonly<Record<EmbeddingsFormat, EmbeddingsCodec>> = {
  openai: complete(openAiEmbeddingsParts, chatCompletionsCodec.encodeError),
  gemini: complete(geminiEmbeddingsParts, generateContentCodec.encodeError),
  ollama: complete(ollamaEmbeddingsParts, localRunnerCodec.encodeError),
};

/** The embeddings codec of a format. */
export function embeddingsCodecFor(format: EmbeddingsFormat): EmbeddingsCodec {
  return CODECS[format];
}
