/**
 * Gemini `embedContent` and `batchEmbedContents` requests: client body → neutral, neutral → upstream body.
 * A batch is one neutral request, so its entries must agree on what the neutral model keeps once per request
 * (model, task type, output size); titles stay per input.
 */
import type {
  EmbeddingInput,
  EmbeddingTaskType,
  GatewayWarning,
  NeutralEmbeddingsRequest,
} from "../../model/mod.ts";
import { EMBEDDING_TASK_TYPES, embeddingsExtraFor, invalidRequest } from "../../model/mod.ts";
import type { EmbeddingsDecodeContext, EncodedEmbeddingsRequest } from "../embeddings_codec.ts";
import { droppedField } from "../shared/dropped_field.ts";
import { MAX_EMBEDDING_INPUTS, positiveInteger } from "../shared/embeddings_common.ts";
import { invalidAt, isRecord, quoteValue } from "../shared/mod.ts";

/**
 * The prefix a bare model name gets, as on the generate-content surface (`DEFAULT_MODEL_PREFIX` there; a test
 * keeps the two equal, since formats do not import each other).
 */
export const GEMINI_DEFAULT_PREFIX = "gemini";

/** Most requests one `batchEmbedContents` call takes (the Gemini API refuses more). */
export const GEMINI_MAX_BATCH = 100;

const KNOWN_ENTRY = new Set(["model", "content", "taskType", "title", "outputDimensionality"]);
const KNOWN_BATCH = new Set(["requests"]);
const TARGET = "a Gemini embeddings upstream";

const TASK_TYPES: ReadonlySet<string> = new Set(EMBEDDING_TASK_TYPES);

/** One decoded `EmbedContentRequest`. */
interface Entry {
  readonly input: EmbeddingInput;
  readonly model?: string;
  readonly taskType?: EmbeddingTaskType;
  readonly dimensions?: number;
}

/** Decodes an `embedContent` or `batchEmbedContents` body; throws GatewayError 400 naming the field. */
export function decodeGeminiEmbeddingsRequest(
  body: unknown,
  ctx: EmbeddingsDecodeContext,
): NeutralEmbeddingsRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const batch = ctx.endpoint === "batchEmbedContents";
  let entries: Entry[];
  let fields: Record<string, unknown> = {};
  if (batch) {
    const requests = body.requests;
    if (requests === undefined) throw invalidAt(["requests"], "is required");
    if (!Array.isArray(requests)) throw invalidAt(["requests"], "must be an array");
    if (requests.length === 0) throw invalidAt(["requests"], "must not be empty");
    if (requests.length > MAX_EMBEDDING_INPUTS) {
      throw invalidAt(["requests"], `must have at most ${MAX_EMBEDDING_INPUTS} entries`);
    }
    entries = requests.map((entry, i) => decodeEntry(entry, ["requests", i]));
    fields = unknown(body, KNOWN_BATCH);
  } else {
    entries = [decodeEntry(body, [])];
    fields = unknown(body, KNOWN_ENTRY);
  }
  const model = modelOf(ctx, entries);
  const first = entries[0];
  for (let i = 1; i < entries.length; i++) {
    // The neutral request holds one task type and one size; a batch that mixes them is two requests.
    if (entries[i].taskType !== first.taskType) {
      throw invalidAt(["requests", i, "taskType"], "must be the same for every request of a batch");
    }
    if (entries[i].dimensions !== first.dimensions) {
      throw invalidAt(
        ["requests", i, "outputDimensionality"],
        "must be the same for every request of a batch",
      );
    }
  }
  const request: { -readonly [K in keyof NeutralEmbeddingsRequest]: NeutralEmbeddingsRequest[K] } = {
    model,
    inputs: entries.map((e) => e.input),
    encoding: "float",
    source: "gemini",
  };
  if (first.taskType !== undefined) request.taskType = first.taskType;
  if (first.dimensions !== undefined) request.dimensions = first.dimensions;
  if (Object.keys(fields).length > 0) request.extra = { format: "gemini", fields };
  return request;
}

function unknown(body: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!known.has(key) && value !== undefined) out[key] = value;
  }
  return out;
}

function decodeEntry(raw: unknown, path: readonly PropertyKey[]): Entry {
  if (!isRecord(raw)) throw invalidAt(path, "must be an object");
  const entry: { -readonly [K in keyof Entry]: Entry[K] } = {
    input: decodeContent(raw.content, [...path, "content"], raw.title, [...path, "title"]),
  };
  if (raw.model !== undefined) {
    if (typeof raw.model !== "string") throw invalidAt([...path, "model"], "must be a string");
    entry.model = raw.model.startsWith("models/") ? raw.model.slice("models/".length) : raw.model;
  }
  if (raw.taskType !== undefined && raw.taskType !== null) {
    const task = typeof raw.taskType === "string" ? raw.taskType.toLowerCase() : undefined;
    if (task === "task_type_unspecified") {
      // The API's own "no task type" value.
    } else if (task === undefined || !TASK_TYPES.has(task)) {
      throw invalidAt(
        [...path, "taskType"],
        `must be one of ${EMBEDDING_TASK_TYPES.map((t) => t.toUpperCase()).join(", ")} (got ${
          quoteValue(raw.taskType)
        })`,
      );
    } else entry.taskType = task as EmbeddingTaskType;
  }
  if (raw.outputDimensionality !== undefined && raw.outputDimensionality !== null) {
    entry.dimensions = positiveInteger(raw.outputDimensionality, [...path, "outputDimensionality"]);
  }
  return entry;
}

/** A `Content` as one text input: its text parts joined by newlines (Gemini embeds a content whole). */
function decodeContent(
  raw: unknown,
  path: readonly PropertyKey[],
  title: unknown,
  titlePath: readonly PropertyKey[],
): EmbeddingInput {
  if (raw === undefined) throw invalidAt(path, "is required");
  if (!isRecord(raw)) throw invalidAt(path, "must be an object");
  const parts = raw.parts;
  if (!Array.isArray(parts) || parts.length === 0) {
    throw invalidAt([...path, "parts"], "must be a non-empty array");
  }
  const texts: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!isRecord(part) || typeof part.text !== "string") {
      throw invalidAt([...path, "parts", i], "must be a text part (only text can be embedded here)");
    }
    texts.push(part.text);
  }
  const text = texts.join("\n");
  if (title === undefined || title === null) return { kind: "text", text };
  if (typeof title !== "string") throw invalidAt(titlePath, "must be a string");
  return { kind: "text", text, title };
}

/** The model from the URL path; batch entries naming another model are refused, as Gemini does. */
function modelOf(ctx: EmbeddingsDecodeContext, entries: readonly Entry[]): string {
  const named = ctx.pathModel ?? entries[0].model;
  if (named === undefined || named === "") {
    throw invalidAt(["model"], "is required; expected POST /v1beta/models/{prefix/model}:embedContent");
  }
  for (let i = 0; i < entries.length; i++) {
    const model = entries[i].model;
    if (model !== undefined && model !== named) {
      throw invalidAt(
        ctx.endpoint === "batchEmbedContents" ? ["requests", i, "model"] : ["model"],
        `must name the model of the URL (models/${named}), not ${quoteValue(`models/${model}`)}`,
      );
    }
  }
  return named.includes("/") || ctx.isComboName?.(named) ? named : `${GEMINI_DEFAULT_PREFIX}/${named}`;
}

/**
 * Encodes a neutral request for a Gemini upstream: `embedContent` for one input, `batchEmbedContents` for
 * more. Token-id inputs cannot be expressed (Gemini takes text, and ids are another model's vocabulary), so
 * they are a 400 rather than a guess at the text.
 */
export function encodeGeminiEmbeddingsRequest(
  request: NeutralEmbeddingsRequest,
  upstreamModel: string,
): EncodedEmbeddingsRequest {
  const warnings: GatewayWarning[] = [];
  const entries = request.inputs.map((input, i) => {
    if (input.kind !== "text") {
      throw invalidRequest(
        `input[${i}]: token-id inputs cannot be sent to a Gemini embeddings upstream (it takes text only); send text`,
      );
    }
    const entry: Record<string, unknown> = { content: { parts: [{ text: input.text }] } };
    if (request.taskType !== undefined) entry.taskType = request.taskType.toUpperCase();
    if (input.title !== undefined) entry.title = input.title;
    if (request.dimensions !== undefined) entry.outputDimensionality = request.dimensions;
    return entry;
  });
  if (request.user !== undefined) warnings.push(droppedField("user", TARGET));
  if (request.truncate === false) {
    warnings.push(
      droppedField("truncate", TARGET, "the Gemini API cuts long inputs and has no switch to refuse them"),
    );
  }
  if (request.extra !== undefined && request.extra.format !== "gemini") {
    for (const field of Object.keys(request.extra.fields)) warnings.push(droppedField(field, TARGET));
  }
  const extra = embeddingsExtraFor(request.extra, "gemini");
  if (entries.length === 1) {
    return { body: { ...extra, ...entries[0] }, endpoint: "embedContent", warnings };
  }
  const model = `models/${upstreamModel}`;
  return {
    body: { ...extra, requests: entries.map((entry) => ({ model, ...entry })) },
    endpoint: "batchEmbedContents",
    warnings,
  };
}
