import type {
  GatewayError,
  GatewayWarning,
  NeutralRequest,
  NeutralResponse,
  StreamEvent,
  UpstreamFormat,
  WireFormat,
} from "../model/mod.ts";
import type { Frame } from "./framing/frame.ts";
import type { StreamStage } from "./shared/stream_stage.ts";

/** What the HTTP layer knows about a client request beyond its body. */
export interface DecodeContext {
  /** The model taken from the URL path (generate-content puts it there). */
  readonly pathModel?: string;
  /**
   * Whether a bare model name (no `prefix/`) is routable as it is, i.e. names a combo. Generate-content
   * gives other bare names (what Gemini clients send) its default prefix.
   */
  readonly isComboName?: (name: string) => boolean;
  /** Stream flag taken from the URL (`:streamGenerateContent`). */
  readonly pathStream?: boolean;
  /** Sub-endpoint for formats with several (`chat` | `generate` for the local runner). */
  readonly endpoint?: string;
}

/** What an encoder needs to know about the client it answers. */
export interface EncodeContext {
  /** The model string the client sent; echoed back where a format echoes it. */
  readonly requestModel: string;
  /** Sub-endpoint for formats with several (`chat` | `generate` for the local runner). */
  readonly endpoint?: string;
  /** Unix seconds, passed in so encoders stay pure. */
  readonly now: number;
  /**
   * An id unique to this client request, for an answer whose upstream gave none (the cloud assistant):
   * a Responses id is a key clients store and continue from, so it must never repeat.
   */
  readonly answerId?: string;
  /**
   * The request's input tokens as the gateway counted them, for a stream that must name them before an
   * upstream reporting usage only at its end has (messages' message_start). The upstream's count wins.
   */
  readonly inputTokens?: number;
}

/** An upstream request body plus what could not be expressed in the target format. */
export interface EncodedRequest {
  readonly body: Record<string, unknown>;
  readonly warnings: readonly GatewayWarning[];
}

/** A client-facing error in this format's envelope. */
export interface EncodedError {
  readonly status: number;
  readonly body: unknown;
}

/** How a format frames its streams on the wire. */
export type Framing = "sse" | "ndjson";

/** How an upstream frames its streams: a client framing, or binary AWS event-stream messages. */
export type UpstreamFraming = Framing | "eventstream";

/**
 * The upstream half of a format: what the gateway needs to call an upstream that speaks it. Every client
 * codec is one; formats only upstreams speak (the cloud assistant) have only this half.
 */
export interface UpstreamCodec {
  readonly format: UpstreamFormat;
  readonly framing: UpstreamFraming;
  /** Neutral → upstream body for `upstreamModel`. */
  encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest;
  /**
   * Upstream non-stream body → neutral; throws GatewayError(502, upstream) when it is not this format.
   * Absent for upstreams that always stream (their answers are collected from the stream).
   */
  decodeResponse?(body: unknown): NeutralResponse;
  /** Upstream frames → neutral events. */
  decodeStream(): StreamStage<Frame, StreamEvent>;
}

/**
 * One wire format around the neutral model. Translation is always decode → neutral → encode.
 * Per-stream state lives in each stream stage's closure.
 */
export interface Codec {
  readonly format: WireFormat;
  readonly framing: Framing;
  /** Client body → neutral; throws GatewayError(400, invalid_request) with a clear message. */
  decodeRequest(body: unknown, ctx: DecodeContext): NeutralRequest;
  /** Neutral → upstream body for `upstreamModel`. */
  encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest;
  /** Upstream non-stream body → neutral; throws GatewayError(502, upstream) when it is not this format. */
  decodeResponse(body: unknown): NeutralResponse;
  /** Neutral → client non-stream body. */
  encodeResponse(response: NeutralResponse, ctx: EncodeContext): unknown;
  /** Upstream frames → neutral events (a stage: pipe it, or run its steps directly). */
  decodeStream(): StreamStage<Frame, StreamEvent>;
  /**
   * Neutral events → client frames (SSE events or NDJSON lines, data already encoded): what the gateway
   * answers with; `src/http` writes them as bytes or WebSocket messages.
   */
  encodeFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame>;
  /** Neutral events → client wire text (`encodeFrames` framed), for tests and mock upstreams. */
  encodeStream(ctx: EncodeContext): StreamStage<StreamEvent, string>;
  /** A GatewayError in this format's error envelope. */
  encodeError(error: GatewayError): EncodedError;
  /**
   * One of this format's stream frames (its data text) naming `model` wherever it names a model, for
   * same-format passthrough streams: clients see the model id they asked for. Chat completions has its
   * own passthrough and needs none.
   */
  readonly streamFrameWithModel?: (data: string, model: string) => string;
}
