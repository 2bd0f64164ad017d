import type {
  EmbeddingEncoding,
  EmbeddingsFormat,
  GatewayError,
  GatewayWarning,
  NeutralEmbeddingsRequest,
  NeutralEmbeddingsResponse,
} from "../model/mod.ts";
import type { EncodedError } from "./codec.ts";

/**
 * Which endpoint of a format a body belongs to. Gemini: `embedContent` (one input) or `batchEmbedContents`;
 * Ollama: `embed` (`/api/embed`) or `embeddings` (the legacy `/api/embeddings`); OpenAI has one.
 */
export type EmbeddingsEndpoint = "embeddings" | "embedContent" | "batchEmbedContents" | "embed";

/** What the HTTP layer knows about an embeddings request beyond its body. */
export interface EmbeddingsDecodeContext {
  /** The model taken from the URL path (Gemini puts it there). */
  readonly pathModel?: string;
  /** Whether a bare model name names a combo (Gemini gives other bare names its default prefix). */
  readonly isComboName?: (name: string) => boolean;
  /** The endpoint the body came to. */
  readonly endpoint?: EmbeddingsEndpoint;
}

/** What an encoder needs to know about the client it answers. */
export interface EmbeddingsEncodeContext {
  /** The model string the client sent; echoed where the format echoes one. */
  readonly requestModel: string;
  /** The endpoint the client called (its answer's shape depends on it for Gemini and Ollama). */
  readonly endpoint?: EmbeddingsEndpoint;
  /** The vector encoding the client asked for. */
  readonly encoding: EmbeddingEncoding;
}

/** An upstream embeddings body, the endpoint to send it to, and what the target could not express. */
export interface EncodedEmbeddingsRequest {
  readonly body: Record<string, unknown>;
  /** The upstream endpoint (`<base>/embeddings`, `models/<m>:embedContent`, `/api/embed`, …). */
  readonly endpoint: EmbeddingsEndpoint;
  readonly warnings: readonly GatewayWarning[];
}

/** What a decoder knows of the upstream call it reads the answer of. */
export interface EmbeddingsCall {
  /** How many inputs the call sent (after splitting). */
  readonly inputs: number;
  /** The upstream model asked for; the answer's model when the format names none (Gemini). */
  readonly upstreamModel: string;
}

/** The half of an embeddings codec its own folder holds; the registry adds the format's error envelope. */
export type EmbeddingsCodecParts = Omit<EmbeddingsCodec, "encodeError">;

/** What an upstream of this format accepts, so dispatch can split calls and skip targets before calling. */
export interface EmbeddingsCapabilities {
  /** Most inputs one upstream call takes; larger requests are split (src/wire/shared/batches.ts). */
  readonly maxInputsPerCall: number;
  /** Whether token-id inputs can be sent (OpenAI only); otherwise such a request is a 400 for this target. */
  readonly tokenInputs: boolean;
}

/**
 * One embeddings wire format around the neutral embeddings model; the embeddings counterpart of `Codec`.
 * No streams: embeddings are answered whole.
 */
export interface EmbeddingsCodec {
  readonly format: EmbeddingsFormat;
  readonly capabilities: EmbeddingsCapabilities;
  /** Client body → neutral; throws GatewayError(400, invalid_request) naming the field. */
  decodeRequest(body: unknown, ctx: EmbeddingsDecodeContext): NeutralEmbeddingsRequest;
  /**
   * Neutral → upstream body for `upstreamModel`. Throws GatewayError(400) when the request cannot be sent
   * to this format at all (token inputs to Gemini or Ollama); every smaller loss is a warning.
   */
  encodeRequest(request: NeutralEmbeddingsRequest, upstreamModel: string): EncodedEmbeddingsRequest;
  /**
   * Upstream body → neutral, vectors in input order; throws GatewayError(502, upstream) when it is not this
   * format's answer or holds another number of vectors than the call's inputs.
   */
  decodeResponse(body: unknown, call: EmbeddingsCall): NeutralEmbeddingsResponse;
  /** Neutral → client body. */
  encodeResponse(response: NeutralEmbeddingsResponse, ctx: EmbeddingsEncodeContext): unknown;
  /** A GatewayError in this format's error envelope (the same envelope as the format's chat surface). */
  encodeError(error: GatewayError): EncodedError;
}
