/** Ollama embeddings answers: upstream body → neutral, neutral → client body (`/api/embed` or legacy). */
import type { NeutralEmbeddingsResponse } from "../../model/mod.ts";
import type { EmbeddingsCall, EmbeddingsEncodeContext } from "../embeddings_codec.ts";
import { badEmbeddingsAnswer, numberVector, tokenCount } from "../shared/embeddings_common.ts";
import { isRecord } from "../shared/mod.ts";

/** Decodes `{embeddings: [[…]], prompt_eval_count}` (or a legacy `{embedding: […]}`). */
export function decodeOllamaEmbeddingsResponse(
  body: unknown,
  call: EmbeddingsCall,
): NeutralEmbeddingsResponse {
  if (!isRecord(body)) throw badEmbeddingsAnswer("not a JSON object", body);
  const list = Array.isArray(body.embeddings)
    ? body.embeddings
    : Array.isArray(body.embedding)
    ? [body.embedding]
    : undefined;
  if (list === undefined) throw badEmbeddingsAnswer("no `embeddings`", body);
  if (list.length !== call.inputs) {
    throw badEmbeddingsAnswer(`${list.length} embeddings for ${call.inputs} inputs`, body);
  }
  const vectors = list.map((entry, i) => {
    const vector = numberVector(entry);
    if (vector === undefined) throw badEmbeddingsAnswer(`embeddings[${i}] is not a vector`, body);
    return vector;
  });
  const model = typeof body.model === "string" && body.model !== "" ? body.model : call.upstreamModel;
  const tokens = tokenCount(body.prompt_eval_count);
  return tokens === undefined ? { model, vectors } : { model, vectors, usage: { inputTokens: tokens } };
}

/**
 * Encodes neutral vectors for an Ollama client: `/api/embed` answers with the list and the token count
 * (durations are the gateway's to not know: 0), the legacy `/api/embeddings` with the one vector.
 */
export function encodeOllamaEmbeddingsResponse(
  response: NeutralEmbeddingsResponse,
  ctx: EmbeddingsEncodeContext,
): Record<string, unknown> {
  if (ctx.endpoint === "embeddings") return { embedding: response.vectors[0] ?? [] };
  return {
    model: ctx.requestModel,
    embeddings: response.vectors,
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: response.usage?.inputTokens ?? 0,
  };
}
