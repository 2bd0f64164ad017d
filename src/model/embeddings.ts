/**
 * The neutral embeddings model: what every embeddings surface decodes to and every embeddings upstream
 * encodes from. Chat's neutral request has no place for vectors, so embeddings are their own kind beside it.
 */

/** The embeddings wire formats: OpenAI `/v1/embeddings`, Gemini `embedContent`, Ollama `/api/embed`. */
export type EmbeddingsFormat = "openai" | "gemini" | "ollama";

/** One thing to embed: text, or token ids (OpenAI's token-array input; only OpenAI-shaped upstreams take it). */
export type EmbeddingInput =
  | {
    readonly kind: "text";
    readonly text: string;
    /** Gemini's document title (meaningful with the `retrieval_document` task). */
    readonly title?: string;
  }
  | { readonly kind: "tokens"; readonly tokens: readonly number[] };

/**
 * What the vectors will be used for (Gemini's `taskType`, lower-cased). Formats without the notion drop
 * it with a `dropped_field:task_type` warning.
 */
export type EmbeddingTaskType =
  | "retrieval_query"
  | "retrieval_document"
  | "semantic_similarity"
  | "classification"
  | "clustering"
  | "question_answering"
  | "fact_verification"
  | "code_retrieval_query";

/** Every task type, for decoders that validate one. */
export const EMBEDDING_TASK_TYPES: readonly EmbeddingTaskType[] = [
  "retrieval_query",
  "retrieval_document",
  "semantic_similarity",
  "classification",
  "clustering",
  "question_answering",
  "fact_verification",
  "code_retrieval_query",
];

/** How the client wants its vectors: JSON numbers, or base64 of little-endian float32 (OpenAI). */
export type EmbeddingEncoding = "float" | "base64";

/** Fields a decoder did not map, kept for an upstream of the same format (as chat's `Extra`). */
export interface EmbeddingsExtra {
  readonly format: EmbeddingsFormat;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** An embeddings request in the middle. */
export interface NeutralEmbeddingsRequest {
  /** The model string as the client sent it (`<prefix>/<model>` or a combo name). */
  readonly model: string;
  /** What to embed, in the order the vectors must come back. Never empty. */
  readonly inputs: readonly EmbeddingInput[];
  /** Reduced vector size (OpenAI `dimensions`, Gemini `outputDimensionality`, Ollama `dimensions`). */
  readonly dimensions?: number;
  /** The encoding the client wants its vectors in (always `float` for formats without a choice). */
  readonly encoding: EmbeddingEncoding;
  readonly taskType?: EmbeddingTaskType;
  /** OpenAI's end-user id. */
  readonly user?: string;
  /** Ollama's `truncate`: false asks for an error instead of silently cut inputs. */
  readonly truncate?: boolean;
  /** The format the request was decoded from. */
  readonly source: EmbeddingsFormat;
  readonly extra?: EmbeddingsExtra;
}

/** Token usage of an embeddings call: only input is billed. */
export interface EmbeddingsUsage {
  readonly inputTokens: number;
  /** True when the gateway counted the tokens itself because the upstream reported none (Gemini). */
  readonly estimated?: boolean;
}

/** An embeddings answer in the middle: one vector per input, in input order. */
export interface NeutralEmbeddingsResponse {
  /** The model name the upstream reported (or the upstream model asked for). */
  readonly model: string;
  readonly vectors: readonly (readonly number[])[];
  /** Absent when the upstream reported none; the gateway then estimates it before encoding. */
  readonly usage?: EmbeddingsUsage;
  readonly extra?: EmbeddingsExtra;
}

/** The fields of `extra` when they came from `format`; otherwise an empty object. */
export function embeddingsExtraFor(
  extra: EmbeddingsExtra | undefined,
  format: EmbeddingsFormat,
): Record<string, unknown> {
  return extra && extra.format === format ? { ...extra.fields } : {};
}
