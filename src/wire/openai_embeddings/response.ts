/** OpenAI `/v1/embeddings` answers: upstream body → neutral, neutral → client body. */
import type { EmbeddingsUsage, NeutralEmbeddingsResponse } from "../../model/mod.ts";
import type { EmbeddingsEncodeContext } from "../embeddings_codec.ts";
import { badEmbeddingsAnswer, numberVector, tokenCount } from "../shared/embeddings_common.ts";
import { isRecord } from "../shared/mod.ts";
import { vectorFromBase64, vectorToBase64 } from "../shared/vector_base64.ts";

/**
 * Decodes an OpenAI embeddings answer (float or base64 vectors) into vectors in input order: entries are
 * placed by their `index`, so an upstream that answers out of order still lines up with the inputs.
 */
export function decodeOpenAiEmbeddingsResponse(
  body: unknown,
  call: { readonly inputs: number; readonly upstreamModel: string },
): NeutralEmbeddingsResponse {
  if (!isRecord(body) || !Array.isArray(body.data)) throw badEmbeddingsAnswer("no `data` list", body);
  const data = body.data;
  if (data.length !== call.inputs) {
    throw badEmbeddingsAnswer(`${data.length} embeddings for ${call.inputs} inputs`, body);
  }
  const vectors = new Array<number[]>(data.length);
  for (let i = 0; i < data.length; i++) {
    const entry = data[i];
    if (!isRecord(entry)) throw badEmbeddingsAnswer(`data[${i}] is not an object`, body);
    const index = entry.index === undefined ? i : entry.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= data.length) {
      throw badEmbeddingsAnswer(`data[${i}].index is not an input position`, body);
    }
    if (vectors[index] !== undefined) throw badEmbeddingsAnswer(`two embeddings for input ${index}`, body);
    const vector = typeof entry.embedding === "string"
      ? vectorFromBase64(entry.embedding)
      : numberVector(entry.embedding);
    if (vector === undefined) throw badEmbeddingsAnswer(`data[${i}].embedding is not a vector`, body);
    vectors[index] = vector;
  }
  const model = typeof body.model === "string" && body.model !== "" ? body.model : call.upstreamModel;
  const usage = decodeUsage(body.usage);
  return usage === undefined ? { model, vectors } : { model, vectors, usage };
}

function decodeUsage(value: unknown): EmbeddingsUsage | undefined {
  if (!isRecord(value)) return undefined;
  const input = tokenCount(value.prompt_tokens) ?? tokenCount(value.total_tokens);
  return input === undefined ? undefined : { inputTokens: input };
}

/** Encodes neutral vectors as an OpenAI embeddings answer, in the encoding the client asked for. */
export function encodeOpenAiEmbeddingsResponse(
  response: NeutralEmbeddingsResponse,
  ctx: EmbeddingsEncodeContext,
): Record<string, unknown> {
  const tokens = response.usage?.inputTokens ?? 0;
  return {
    object: "list",
    data: response.vectors.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: ctx.encoding === "base64" ? vectorToBase64(vector) : vector,
    })),
    // The client sees the model id it asked for (prefix/model or a combo), never the upstream's name.
    model: ctx.requestModel,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
