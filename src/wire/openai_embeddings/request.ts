/** OpenAI `/v1/embeddings` requests: client body → neutral, neutral → upstream body. */
import type { EmbeddingInput, GatewayWarning, NeutralEmbeddingsRequest } from "../../model/mod.ts";
import { embeddingsExtraFor, invalidRequest } from "../../model/mod.ts";
import type { EncodedEmbeddingsRequest } from "../embeddings_codec.ts";
import { droppedField } from "../shared/dropped_field.ts";
import { MAX_EMBEDDING_INPUTS, positiveInteger } from "../shared/embeddings_common.ts";
import { invalidAt, isRecord, quoteValue } from "../shared/mod.ts";

const KNOWN = new Set(["model", "input", "dimensions", "encoding_format", "user"]);
const TARGET = "an OpenAI embeddings upstream";

/** Decodes an OpenAI embeddings request; throws GatewayError 400 naming the failing field. */
export function decodeOpenAiEmbeddingsRequest(body: unknown): NeutralEmbeddingsRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const model = body.model;
  if (model === undefined) throw invalidAt(["model"], "is required");
  if (typeof model !== "string" || model === "") throw invalidAt(["model"], "must be a non-empty string");
  const inputs = decodeInput(body.input);
  const encoding = body.encoding_format ?? "float";
  if (encoding !== "float" && encoding !== "base64") {
    throw invalidAt(["encoding_format"], `must be one of "float", "base64" (got ${quoteValue(encoding)})`);
  }
  const request: {
    -readonly [K in keyof NeutralEmbeddingsRequest]: NeutralEmbeddingsRequest[K];
  } = { model, inputs, encoding, source: "openai" };
  if (body.dimensions !== undefined && body.dimensions !== null) {
    request.dimensions = positiveInteger(body.dimensions, ["dimensions"]);
  }
  if (body.user !== undefined && body.user !== null) {
    if (typeof body.user !== "string") throw invalidAt(["user"], "must be a string");
    request.user = body.user;
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN.has(key) && value !== undefined) fields[key] = value;
  }
  if (Object.keys(fields).length > 0) request.extra = { format: "openai", fields };
  return request;
}

/** `input`: a string, a list of strings, a token list, or a list of token lists. */
function decodeInput(input: unknown): EmbeddingInput[] {
  if (input === undefined || input === null) throw invalidAt(["input"], "is required");
  if (typeof input === "string") return [{ kind: "text", text: input }];
  if (!Array.isArray(input)) throw invalidAt(["input"], "must be a string or an array");
  if (input.length === 0) throw invalidAt(["input"], "must not be empty");
  if (input.length > MAX_EMBEDDING_INPUTS) {
    throw invalidAt(["input"], `must have at most ${MAX_EMBEDDING_INPUTS} entries`);
  }
  // The first entry says which list it is; every other entry must be of the same kind.
  const first = input[0];
  if (typeof first === "number") return [{ kind: "tokens", tokens: tokenList(input, ["input"]) }];
  const out: EmbeddingInput[] = [];
  for (let i = 0; i < input.length; i++) {
    const entry = input[i];
    if (typeof first === "string") {
      if (typeof entry !== "string") {
        throw invalidAt(["input", i], "must be a string (as the first entry is)");
      }
      out.push({ kind: "text", text: entry });
    } else if (Array.isArray(first)) {
      if (!Array.isArray(entry)) {
        throw invalidAt(["input", i], "must be an array of token ids (as the first entry is)");
      }
      out.push({ kind: "tokens", tokens: tokenList(entry, ["input", i]) });
    } else {
      throw invalidAt(["input", 0], "must be a string, a token id or an array of token ids");
    }
  }
  return out;
}

function tokenList(list: readonly unknown[], path: readonly PropertyKey[]): number[] {
  if (list.length === 0) throw invalidAt(path, "must not be empty");
  for (let i = 0; i < list.length; i++) {
    const token = list[i];
    if (typeof token !== "number" || !Number.isInteger(token) || token < 0) {
      throw invalidAt([...path, i], "must be a token id (a non-negative integer)");
    }
  }
  return list as number[];
}

/** Encodes a neutral embeddings request as an OpenAI `/embeddings` body. */
export function encodeOpenAiEmbeddingsRequest(
  request: NeutralEmbeddingsRequest,
  upstreamModel: string,
): EncodedEmbeddingsRequest {
  const warnings: GatewayWarning[] = [];
  const kinds = new Set(request.inputs.map((i) => i.kind));
  // Only OpenAI clients send token ids, and never mixed with text; a mix cannot be one OpenAI input list.
  if (kinds.size > 1) throw invalidRequest("input: text and token-id inputs cannot be mixed in one request");
  const only = request.inputs.length === 1 ? request.inputs[0] : undefined;
  // A lone text goes as a string: what most clients send, and what every compatible server accepts.
  const input = only?.kind === "text"
    ? only.text
    : request.inputs.map((i) => (i.kind === "text" ? i.text : i.tokens));
  const body: Record<string, unknown> = {
    ...embeddingsExtraFor(request.extra, "openai"),
    model: upstreamModel,
    input,
  };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  // Base64 is a quarter of the bytes of JSON numbers; ask for it when the client wants it anyway.
  if (request.encoding === "base64") body.encoding_format = "base64";
  if (request.user !== undefined) body.user = request.user;
  if (request.taskType !== undefined) {
    warnings.push(droppedField("task_type", TARGET, "OpenAI embeddings take no task type"));
  }
  if (request.inputs.some((i) => i.kind === "text" && i.title !== undefined)) {
    warnings.push(droppedField("title", TARGET, "OpenAI embeddings take no document title"));
  }
  if (request.truncate === true) {
    warnings.push(
      droppedField(
        "truncate",
        TARGET,
        "OpenAI refuses inputs over the model's context instead of cutting them",
      ),
    );
  }
  if (request.extra !== undefined && request.extra.format !== "openai") {
    for (const field of Object.keys(request.extra.fields)) warnings.push(droppedField(field, TARGET));
  }
  return { body, endpoint: "embeddings", warnings };
}
