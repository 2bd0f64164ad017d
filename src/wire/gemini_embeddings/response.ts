/** Gemini embeddings answers: upstream body → neutral, neutral → client body. */
import type { NeutralEmbeddingsResponse } from "../../model/mod.ts";
import type { EmbeddingsCall, EmbeddingsEncodeContext } from "../embeddings_codec.ts";
import { badEmbeddingsAnswer, numberVector, tokenCount } from "../shared/embeddings_common.ts";
import { isRecord } from "../shared/mod.ts";

/**
 * Decodes `{embedding: {values}}` (embedContent) or `{embeddings: [{values}]}` (batchEmbedContents). The
 * Gemini API reports no token usage for embeddings unless it sends `usageMetadata`; without it, usage is left
 * for the gateway to estimate.
 */
export function decodeGeminiEmbeddingsResponse(
  body: unknown,
  call: EmbeddingsCall,
): NeutralEmbeddingsResponse {
  if (!isRecord(body)) throw badEmbeddingsAnswer("not a JSON object", body);
  const list = Array.isArray(body.embeddings)
    ? body.embeddings
    : isRecord(body.embedding)
    ? [body.embedding]
    : undefined;
  if (list === undefined) throw badEmbeddingsAnswer("no `embedding` or `embeddings`", body);
  if (list.length !== call.inputs) {
    throw badEmbeddingsAnswer(`${list.length} embeddings for ${call.inputs} inputs`, body);
  }
  const vectors = list.map((entry, i) => {
    const vector = isRecord(entry) ? numberVector(entry.values) : undefined;
    if (vector === undefined) throw badEmbeddingsAnswer(`embeddings[${i}].values is not a vector`, body);
    return vector;
  });
  const usage = isRecord(body.usageMetadata) ? tokenCount(body.usageMetadata.promptTokenCount) : undefined;
  return usage === undefined
    ? { model: call.upstreamModel, vectors }
    : { model: call.upstreamModel, vectors, usage: { inputTokens: usage } };
}

/** Encodes neutral vectors in the shape of the endpoint the client called (Gemini answers name no model). */
export function encodeGeminiEmbeddingsResponse(
  response: NeutralEmbeddingsResponse,
  ctx: EmbeddingsEncodeContext,
): Record<string, unknown> {
  if (ctx.endpoint === "embedContent") return { embedding: { values: response.vectors[0] ?? [] } };
  return { embeddings: response.vectors.map((values) => ({ values })) };
}
