import type {
  GatewayError,
  GatewayWarning,
  NeutralRerankRequest,
  NeutralRerankResponse,
  RerankDocument,
  RerankFormat,
} from "../model/mod.ts";
import type { EncodedError } from "./codec.ts";

/** What an encoder needs to know about the client it answers. */
export interface RerankEncodeContext {
  /** The model string the client sent; echoed where the format echoes one. */
  readonly requestModel: string;
  /** The request's documents: a result's document is taken from here when the upstream did not return it. */
  readonly documents: readonly RerankDocument[];
  /** What the client asked about documents in results (absent: as the upstream answered). */
  readonly returnDocuments?: boolean;
}

/** An upstream rerank body and what the target could not express. */
export interface EncodedRerankRequest {
  readonly body: Record<string, unknown>;
  readonly warnings: readonly GatewayWarning[];
}

/** What a decoder knows of the upstream call it reads the answer of. */
export interface RerankCall {
  /** How many documents the call sent: every result's index must point at one. */
  readonly documents: number;
  /** The `top_n` asked for: an upstream that returns more is cut to it. */
  readonly topN?: number;
}

/** The half of a rerank codec its own folder holds; the registry adds the shared error envelope. */
export type RerankCodecParts = Omit<RerankCodec, "encodeError">;

/** One rerank wire format around the neutral rerank model; answered whole, no streams. */
export interface RerankCodec {
  readonly format: RerankFormat;
  /** Client body → neutral; throws GatewayError(400, invalid_request) naming the field. */
  decodeRequest(body: unknown): NeutralRerankRequest;
  /** Neutral → upstream body for `upstreamModel`; what the format cannot carry is a warning. */
  encodeRequest(request: NeutralRerankRequest, upstreamModel: string): EncodedRerankRequest;
  /**
   * Upstream body → neutral, most relevant first; throws GatewayError(502, upstream) when it is not a rerank
   * answer or names a document the call did not send.
   */
  decodeResponse(body: unknown, call: RerankCall): NeutralRerankResponse;
  /** Neutral → client body. */
  encodeResponse(response: NeutralRerankResponse, ctx: RerankEncodeContext): Record<string, unknown>;
  /** A GatewayError in the rerank envelope. */
  encodeError(error: GatewayError): EncodedError;
}
