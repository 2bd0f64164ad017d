import {
  GatewayError,
  type NeutralRequest,
  type UpstreamErrorInfo,
  type Usage,
  type WireFormat,
} from "../model/mod.ts";
import type { RatePermit } from "../accounting/mod.ts";
import type { Redactor } from "../security/redact.ts";
import type { UsageRow } from "../storage/mod.ts";
import { codecFor, type DecodeContext } from "../wire/mod.ts";
import type { Codec } from "../wire/codec.ts";
import {
  type AttemptStart,
  type AttemptTrace,
  extractTraceContext,
  type RequestSpanSink,
  type RequestTrace as RequestSpan,
} from "../telemetry/mod.ts";
import type { AttemptListener, RouteSuccess } from "./attempt_context.ts";
import { type Answer, fixedFrames, jsonAnswer, streamAnswer } from "./answer.ts";
import { encodeAnswer, encodeContext, type EncodedAnswer } from "./encode_answer.ts";
import { type ClientIdentity, identityLabel } from "./identity.ts";
import type { RequestTiming } from "./request_timing.ts";
import { streamEndStatus, type StreamSummary } from "./stream_meter.ts";
import type { GatewayWarning } from "./warnings.ts";
import { asksForStream, errorType, operationOf } from "./trace_facts.ts";
import type { LongStrings } from "../long_strings.ts";

/** One client request as the HTTP layer hands it over. */
export interface DispatchInput {
  readonly surface: WireFormat;
  readonly body: unknown;
  readonly decode: DecodeContext;
  readonly identity: ClientIdentity;
  readonly clientHeaders: Headers;
  /**
   * The client connection's signal, aborted when the client goes away. A function because watching a
   * connection costs something per request: it is asked for only where a disconnect matters (long
   * upstream calls, streams, fallbacks, fusion).
   */
  readonly clientSignal: () => AbortSignal;
  /** Upstream waits and the first byte, for `x-gateway-overhead-ms` and the metrics. */
  readonly timing: RequestTiming;
  /** How the request arrived: one message on a Responses WebSocket, or (absent) an HTTP request. */
  readonly transport?: "websocket";
  /** A non-chat request's kind for the request log (`images`, `audio`, …); the surface names chat requests. */
  readonly logSurface?: "images" | "audio" | "embeddings" | "rerank";
  /**
   * The request's uid, given before dispatch so the client learns it from `x-gateway-request-id` (the
   * Playground finds its own request-log row by it); absent: the request log makes one when it is over.
   */
  readonly requestUid?: string;
  /** The pieces of a big body's long strings, read through them to encode the body again (long_strings.ts). */
  readonly longStrings?: LongStrings;
}

/** What one request did, reported once when it is over (request logs, live usage). */
export interface RequestTrace {
  /** Numbers requests in arrival order (1, 2, …) for the life of the process; links start and finish. */
  readonly id: number;
  readonly input: DispatchInput;
  readonly startedAt: number;
  model: string;
  providerId: string;
  status: number;
  streamed: boolean;
  /** The answer as sent to the client (non-stream JSON text, or the streamed output text). */
  responseBody: string;
  error: string;
  latencyMs: number;
  /** What translation lost for the answer the client got, one entry per code (empty for most requests). */
  warnings: readonly GatewayWarning[];
  /** Attempts made (0 when the request failed before routing); more than one means fallbacks. */
  attempts: number;
  /** Chunks a streamed answer sent to the client (0 for whole answers). */
  streamChunks: number;
  /** The usage row of each attempt, in order (promises while tokens are estimated): the attempt chain. */
  readonly attemptRows: (UsageRow | Promise<UsageRow | null>)[];
  /** The request span's trace and span ids (they exist even when the request is not sampled). */
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** The usage of the answer the client got, when the upstream reported it. */
  usage: Usage | null;
}

/** Watches requests: the dashboard's in-flight count, live events and request logs hang off this. */
export interface DispatchObserver {
  started(trace: RequestTrace): void;
  finished(trace: RequestTrace): void;
}

/** How a request ended: the one input of its status. */
type Ending =
  | { readonly kind: "answered"; readonly logBody: string }
  | { readonly kind: "streamed"; readonly summary: StreamSummary }
  | { readonly kind: "failed"; readonly error: unknown };

const NO_WARNINGS: readonly GatewayWarning[] = Object.freeze([]);

/** What an unsampled attempt is started with (the sink reads none of it). */
const UNRECORDED_ATTEMPT: AttemptStart = Object.freeze({ index: 0, provider: "", account: "", model: "" });

/** Where the current redactor comes from (the control plane; read only when a request fails). */
export interface RedactorSource {
  readonly redactor: Redactor;
}

/**
 * One client request from arrival to its end. It owns the request's trace and warnings and finishes
 * exactly once, whether the request ends as JSON, as a stream (when the client's body is over) or as an
 * error; observers hear `started` at construction and `finished` then.
 */
export class RequestLifecycle implements AttemptListener {
  /** The trace observers see; filled in as the request goes. */
  readonly trace: RequestTrace;
  readonly #observers: readonly DispatchObserver[];
  readonly #now: () => number;
  readonly #secrets: RedactorSource;
  #finished = false;
  /** Set by `hold`: only `complete` (or a failure) ends the request. */
  #held = false;
  /** The model id the client sent; set once the body is decoded. */
  #clientModel: string | undefined;
  /** The request's hold on its key's rate limits, released when the request ends. */
  #permit: RatePermit | null = null;
  /** The rate-limit headers of the answer (set by `admitted`). */
  #rateHeaders: Readonly<Record<string, string>> | null = null;
  /** Tokens (input + output) the answers reported, to settle the token limit with. */
  #usedTokens = 0;
  /** The request's span (telemetry); its attempts are children. */
  readonly #span: RequestSpan;
  /** What the answering attempt reported, for the request span's end. */
  #responseModel: string | undefined;
  #finishReason: string | undefined;
  /** What the answers cost (USD), and the savers that changed the request. */
  #cost = 0;
  readonly #savers: string[] = [];
  /** The decoded request, for content capture. */
  #request: NeutralRequest | undefined;
  /** The provider of the latest attempt (the one that answered, when one did). */
  #provider: string | undefined;

  constructor(
    id: number,
    input: DispatchInput,
    observers: readonly DispatchObserver[],
    now: () => number,
    secrets: RedactorSource,
    spans: RequestSpanSink,
  ) {
    this.#observers = observers;
    this.#now = now;
    this.#secrets = secrets;
    const model = input.decode.pathModel || modelOf(input.body);
    const headers = input.clientHeaders;
    this.#span = spans.start({
      requestId: String(id),
      surface: input.surface,
      operation: operationOf(input.surface, input.decode.endpoint, input.logSurface),
      requestModel: model,
      stream: asksForStream(input.body, input.decode.pathStream),
      incoming: extractTraceContext((name) => headers.get(name)),
      clientKey: identityLabel(input.identity),
    });
    this.trace = {
      id,
      input,
      startedAt: now(),
      model,
      providerId: "",
      status: 0,
      streamed: false,
      responseBody: "",
      error: "",
      latencyMs: 0,
      warnings: NO_WARNINGS,
      attempts: 0,
      streamChunks: 0,
      attemptRows: [],
      traceId: this.#span.traceId,
      spanId: this.#span.spanId,
      sampled: this.#span.sampled,
      usage: null,
    };
    for (const observer of observers) observer.started(this.trace);
  }

  /**
   * The request decoded: the model it routes to (suffix removed), the model id the client sent (what its
   * answer names) and whether it streams.
   */
  decoded(request: NeutralRequest, clientModel: string): void {
    this.#clientModel = clientModel;
    this.#request = request;
    this.trace.model = request.model;
    this.trace.streamed = request.stream;
  }

  /**
   * The rate limits admitted the request: the permit is settled with the usage and released when the
   * request ends, however it ends (a stream at its last byte, a failure, the client leaving).
   */
  admitted(permit: RatePermit, headers: Readonly<Record<string, string>>): void {
    this.#permit = permit;
    this.#rateHeaders = headers;
  }

  /** Whether the rate limits already admitted this request (a compaction dispatches more than once). */
  get isAdmitted(): boolean {
    return this.#permit !== null;
  }

  /** The answer with the rate-limit headers of its admission (the same answer when there are none). */
  withRateHeaders(answer: Answer): Answer {
    const headers = this.#rateHeaders;
    if (headers === null || Object.keys(headers).length === 0) return answer;
    return { ...answer, headers: { ...answer.headers, ...headers } };
  }

  /**
   * An attempt starts against this account; its span (a child of the request's) is returned for the
   * attempt to carry its `traceparent` upstream and end when it is over.
   */
  attempting(providerId: string, start: (index: number) => AttemptStart): AttemptTrace {
    this.trace.providerId = providerId;
    const index = this.trace.attempts++;
    // An unsampled attempt records nothing: its facts are not even gathered.
    if (!this.#span.sampled) return this.#span.attempt(UNRECORDED_ATTEMPT);
    const facts = start(index);
    this.#provider = facts.provider;
    return this.#span.attempt(facts);
  }

  /** Adds an answering attempt's cost (fusion's panel and judge each add theirs). */
  costed(usd: number): void {
    this.#cost += usd;
  }

  /** The savers that changed the request (`rtk`, `caveman`, …), for the request span. */
  readonly saverApplied = (saver: string): void => {
    this.#savers.push(saver);
  };

  /** The client gets its first content (a stream committed). */
  firstToken(): void {
    this.#span.firstToken();
  }

  /** Collects an answering attempt's warnings (fusion's panel and judge all add theirs). */
  warned(warnings: readonly GatewayWarning[]): void {
    if (warnings.length === 0) return;
    const merged = [...this.trace.warnings];
    for (const warning of warnings) {
      if (!merged.some((w) => w.code === warning.code)) merged.push(warning);
    }
    this.trace.warnings = merged;
  }

  /**
   * The client's answer for a successful route; a whole answer finishes the request now (unless the
   * request is held: several dispatches serve it and `complete` ends it).
   */
  answer(request: NeutralRequest, outcome: RouteSuccess): Answer {
    const codec = codecFor(this.trace.input.surface, this.trace.input.decode.endpoint);
    if (outcome.kind !== "stream") {
      this.#usedTokens += usageTokens(outcome.response.usage);
      this.trace.usage = outcome.response.usage;
      this.#responseModel = outcome.response.model;
      this.#finishReason = outcome.response.finish.raw ?? undefined;
      // Recorded only when content capture is on (the sink ignores it otherwise).
      if (this.#span.sampled) {
        this.#span.content({ request, answer: outcome.response.parts, finish: outcome.response.finish });
      }
    }
    if (outcome.kind === "stream") {
      if (!this.#held) this.trace.input.timing.firstByte();
      return streamAnswer(codec.framing, outcome.frames, this.trace.warnings);
    }
    const ctx = encodeContext(
      this.#clientModel ?? request.model,
      this.trace.input.decode.endpoint,
      this.#now(),
      this.trace.spanId,
    );
    const encoded = encodeAnswer(codec, request, outcome.response, ctx);
    if (this.#held) return this.#encoded(codec.framing, encoded);
    // After encoding: turning the answer into the client's format is the gateway's own work.
    this.trace.input.timing.firstByte();
    this.#finish({ kind: "answered", logBody: encoded.streamed ? encoded.logBody : encoded.text });
    return this.#encoded(codec.framing, encoded);
  }

  #encoded(framing: Codec["framing"], encoded: EncodedAnswer): Answer {
    return encoded.streamed
      ? streamAnswer(framing, fixedFrames(encoded.frames), this.trace.warnings)
      : jsonAnswer(encoded.value, this.trace.warnings, encoded.text);
  }

  /**
   * Several dispatches serve this one request (compaction: a native try, then the summary): their
   * answers and streams no longer end it; `complete` does, once, with the answer the client gets.
   */
  hold(): void {
    this.#held = true;
  }

  /**
   * A held request (or one the gateway answered itself, like count_tokens) ends with `answer`: `logBody`
   * is what the request log keeps, `streamed` whether the client asked to stream.
   */
  complete(answer: Answer, logBody: string, streamed: boolean): Answer {
    this.trace.streamed = streamed;
    // The log keeps the warnings of the answer the client got, not those of a try that was not used.
    this.trace.warnings = answer.warnings;
    this.trace.input.timing.firstByte();
    this.#finish({ kind: "answered", logBody });
    return answer;
  }

  /** An attempt's usage row: a link of the chain the request log shows. */
  recorded(row: UsageRow | Promise<UsageRow | null>): void {
    this.trace.attemptRows.push(row);
  }

  /** A committed stream is over: the request ends with it (a held request ends at `complete`). */
  streamEnded(summary: StreamSummary): void {
    this.#usedTokens += usageTokens(summary.usage);
    if (summary.usageReported) this.trace.usage = summary.usage;
    this.#finishReason = summary.finish?.raw ?? undefined;
    if (this.#span.sampled && this.#request !== undefined) {
      const answer = [{ kind: "text" as const, text: summary.outputText }];
      this.#span.content({ request: this.#request, answer, finish: summary.finish });
    }
    if (this.#held) return;
    this.#finish({ kind: "streamed", summary });
  }

  /**
   * The request failed; returns the error for the caller to rethrow, its text cleared of credentials and
   * internal addresses: any client, anonymous ones included, reads it (the 503 of exhausted fallbacks
   * quotes the last upstream's error).
   */
  failed(error: unknown): unknown {
    this.trace.input.timing.firstByte();
    this.#finish({ kind: "failed", error });
    return error instanceof GatewayError ? clientSafe(error, this.#secrets.redactor) : error;
  }

  #finish(ending: Ending): void {
    if (this.#finished) return;
    this.#finished = true;
    const trace = this.trace;
    switch (ending.kind) {
      case "answered":
        trace.status = 200;
        trace.responseBody = ending.logBody;
        break;
      case "streamed": {
        const { status, error } = streamEndStatus(ending.summary);
        trace.status = status;
        trace.responseBody = ending.summary.outputText;
        trace.streamChunks = ending.summary.chunks;
        trace.error = error === "" ? error : this.#secrets.redactor.redact(error);
        break;
      }
      case "failed":
        trace.status = ending.error instanceof GatewayError ? ending.error.status : 500;
        trace.error = this.#secrets.redactor.redact(
          ending.error instanceof Error ? ending.error.message : String(ending.error),
        );
        break;
    }
    const now = this.#now();
    trace.latencyMs = now - trace.startedAt;
    if (this.#permit !== null) {
      this.#permit.settle(this.#usedTokens, now);
      this.#permit.release();
    }
    this.#endSpan();
    for (const observer of this.#observers) observer.finished(trace);
  }

  #endSpan(): void {
    if (!this.#span.sampled) return;
    const trace = this.trace;
    const failed = trace.status >= 400 || trace.status === 0;
    this.#span.end({
      httpStatus: trace.status,
      error: failed ? { type: errorType(trace.status), message: trace.error } : undefined,
      provider: this.#provider,
      account: trace.providerId === "" ? undefined : trace.providerId,
      responseModel: this.#responseModel,
      finishReasons: this.#finishReason === undefined ? undefined : [this.#finishReason],
      warnings: trace.warnings,
      costUsd: this.#cost,
      saversApplied: this.#savers,
    });
  }
}

/** The error as a client may see it; the same object when there was nothing to hide. */
function clientSafe(error: GatewayError, redactor: Redactor): GatewayError {
  const message = redactor.redactForClient(error.message);
  const fixedBody = error.fixedBody === undefined ? undefined : redactStrings(error.fixedBody, redactor, 0);
  if (message === error.message && fixedBody === error.fixedBody && error.upstreamBody === undefined) {
    return error;
  }
  // upstreamBody is dropped: it is the raw text the message was made from.
  return new GatewayError(error.status, error.kind, message, {
    headers: error.headers,
    fixedBody,
    upstreamError: error.upstreamError === undefined
      ? undefined
      : redactStrings(error.upstreamError, redactor, 0) as UpstreamErrorInfo,
    field: error.field,
    cause: error.cause,
  });
}

/** Strings of a small spec-fixed body (`{detail}`, the budget body) redacted; other values kept. */
function redactStrings(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === "string") return redactor.redactForClient(value);
  if (depth >= 4 || typeof value !== "object" || value === null) return value;
  let changed = false;
  const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [key, inner] of Object.entries(value)) {
    const redacted = redactStrings(inner, redactor, depth + 1);
    if (redacted !== inner) changed = true;
    (out as Record<string, unknown>)[key] = redacted;
  }
  return changed ? out : value;
}

function usageTokens(usage: { readonly inputTotal: number; readonly output: number }): number {
  return usage.inputTotal + usage.output;
}

function modelOf(body: unknown): string {
  const record = body as Record<string, unknown> | null;
  return typeof record?.model === "string" ? record.model : "";
}
