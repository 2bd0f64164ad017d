/**
 * Ollama embeddings requests: `/api/embed` (`input` string or list, `truncate`, `dimensions`, `options`,
 * `keep_alive`) and the legacy `/api/embeddings` (`prompt`). Upstreams are always called on `/api/embed`,
 * which takes batches and reports token counts.
 */
import type { EmbeddingInput, GatewayWarning, NeutralEmbeddingsRequest } from "../../model/mod.ts";
import { embeddingsExtraFor, invalidRequest } from "../../model/mod.ts";
import type { EmbeddingsDecodeContext, EncodedEmbeddingsRequest } from "../embeddings_codec.ts";
import { droppedField } from "../shared/dropped_field.ts";
import { MAX_EMBEDDING_INPUTS, positiveInteger } from "../shared/embeddings_common.ts";
import { invalidAt, isRecord } from "../shared/mod.ts";

const KNOWN_EMBED = new Set(["model", "input", "truncate", "dimensions"]);
const KNOWN_LEGACY = new Set(["model", "prompt"]);
const TARGET = "an Ollama embeddings upstream";

/** Decodes an `/api/embed` or `/api/embeddings` body; throws GatewayError 400 naming the field. */
export function decodeOllamaEmbeddingsRequest(
  body: unknown,
  ctx: EmbeddingsDecodeContext,
): NeutralEmbeddingsRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const model = body.model;
  if (model === undefined) throw invalidAt(["model"], "is required");
  if (typeof model !== "string" || model === "") throw invalidAt(["model"], "must be a non-empty string");
  const legacy = ctx.endpoint === "embeddings";
  const request: { -readonly [K in keyof NeutralEmbeddingsRequest]: NeutralEmbeddingsRequest[K] } = {
    model,
    inputs: legacy ? [legacyPrompt(body.prompt)] : decodeInput(body.input),
    encoding: "float",
    source: "ollama",
  };
  if (!legacy) {
    if (body.truncate !== undefined && body.truncate !== null) {
      if (typeof body.truncate !== "boolean") throw invalidAt(["truncate"], "must be a boolean");
      request.truncate = body.truncate;
    }
    if (body.dimensions !== undefined && body.dimensions !== null) {
      request.dimensions = positiveInteger(body.dimensions, ["dimensions"]);
    }
  }
  const known = legacy ? KNOWN_LEGACY : KNOWN_EMBED;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!known.has(key) && value !== undefined) fields[key] = value;
  }
  if (Object.keys(fields).length > 0) request.extra = { format: "ollama", fields };
  return request;
}

function legacyPrompt(prompt: unknown): EmbeddingInput {
  if (prompt === undefined || prompt === null) throw invalidAt(["prompt"], "is required");
  if (typeof prompt !== "string") throw invalidAt(["prompt"], "must be a string");
  return { kind: "text", text: prompt };
}

function decodeInput(input: unknown): EmbeddingInput[] {
  if (input === undefined || input === null) throw invalidAt(["input"], "is required");
  if (typeof input === "string") return [{ kind: "text", text: input }];
  if (!Array.isArray(input)) throw invalidAt(["input"], "must be a string or an array of strings");
  if (input.length === 0) throw invalidAt(["input"], "must not be empty");
  if (input.length > MAX_EMBEDDING_INPUTS) {
    throw invalidAt(["input"], `must have at most ${MAX_EMBEDDING_INPUTS} entries`);
  }
  return input.map((entry, i) => {
    if (typeof entry !== "string") throw invalidAt(["input", i], "must be a string");
    return { kind: "text", text: entry };
  });
}

/** Encodes a neutral request as an `/api/embed` body; token-id inputs are a 400 (Ollama takes text only). */
export function encodeOllamaEmbeddingsRequest(
  request: NeutralEmbeddingsRequest,
  upstreamModel: string,
): EncodedEmbeddingsRequest {
  const warnings: GatewayWarning[] = [];
  const texts = request.inputs.map((input, i) => {
    if (input.kind !== "text") {
      throw invalidRequest(
        `input[${i}]: token-id inputs cannot be sent to an Ollama embeddings upstream (it takes text only); send text`,
      );
    }
    return input.text;
  });
  const extra = embeddingsExtraFor(request.extra, "ollama");
  // The legacy endpoint's `prompt` has no place on /api/embed; every other field means the same there.
  delete extra.prompt;
  const body: Record<string, unknown> = {
    ...extra,
    model: upstreamModel,
    input: texts.length === 1 ? texts[0] : texts,
  };
  if (request.truncate !== undefined) body.truncate = request.truncate;
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  if (request.taskType !== undefined) {
    warnings.push(droppedField("task_type", TARGET, "Ollama embeddings take no task type"));
  }
  if (request.inputs.some((i) => i.kind === "text" && i.title !== undefined)) {
    warnings.push(droppedField("title", TARGET, "Ollama embeddings take no document title"));
  }
  if (request.user !== undefined) warnings.push(droppedField("user", TARGET));
  if (request.extra !== undefined && request.extra.format !== "ollama") {
    for (const field of Object.keys(request.extra.fields)) warnings.push(droppedField(field, TARGET));
  }
  return { body, endpoint: "embed", warnings };
}
