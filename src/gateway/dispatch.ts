import type { ProviderConfig } from "../config/mod.ts";
import { presetFor } from "../executors/presets.ts";
import { callUpstream } from "../executors/call_upstream.ts";
import type { ProviderClients } from "../executors/http_clients.ts";
import { DEFAULT_ANTHROPIC_VERSION } from "../executors/presets.ts";
import {
  GatewayError,
  type NeutralRequest,
  type NeutralResponse,
  type StreamEvent,
  type WireFormat,
} from "../model/mod.ts";
import {
  allCoolingMessage,
  type Attempt,
  classifyUpstreamFailure,
  exhaustedMessage,
  type FailureClassification,
  isModelAllowed,
} from "../routing/mod.ts";
import { chatCompletionsPassthrough, codecFor, type DecodeContext, type EncodeContext } from "../wire/mod.ts";
import type { Codec } from "../wire/codec.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import type { ControlPlane } from "./control_plane.ts";
import type { ClientIdentity } from "./identity.ts";
import type { RoutingService } from "./routing_service.ts";
import { streamMeter, type StreamSummary } from "./stream_meter.ts";
import { drain, frameText, peekStream, replay, upstreamFrames } from "./upstream_stream.ts";
import type { UsageRecorder } from "./usage_recorder.ts";
import type { RoutingTable } from "../routing/mod.ts";

/** Upstream timeouts (ms). */
export interface UpstreamTimeouts {
  readonly headersMs: number;
  readonly idleMs: number;
}

/** Defaults: generous for slow non-stream generations, strict enough to notice dead streams. */
export const DEFAULT_TIMEOUTS: UpstreamTimeouts = { headersMs: 300_000, idleMs: 120_000 };
/** Upstream error bodies are read up to this size for classification and messages. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** One client request as the HTTP layer hands it over. */
export interface DispatchInput {
  readonly surface: WireFormat;
  readonly body: unknown;
  readonly decode: DecodeContext;
  readonly identity: ClientIdentity;
  readonly clientHeaders: Headers;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/** What one request did, reported once when it is over (request logs, live usage). */
export interface RequestTrace {
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
}

/** Watches requests: the dashboard's in-flight count, live events and request logs hang off this. */
export interface DispatchObserver {
  started(trace: RequestTrace): void;
  finished(trace: RequestTrace): void;
}

/** What the dispatcher needs from the runtime. */
export interface DispatchDeps {
  readonly control: ControlPlane;
  readonly table: () => RoutingTable;
  readonly routing: RoutingService;
  readonly clients: ProviderClients;
  readonly recorder: UsageRecorder;
  readonly budgets: BudgetGuard;
  readonly now: () => number;
  readonly newId: () => string;
  readonly timeouts: UpstreamTimeouts;
  readonly observers: readonly DispatchObserver[];
}

type AttemptOutcome =
  | { readonly kind: "success"; readonly response: Response }
  | { readonly kind: "failure"; readonly message: string; readonly classification: FailureClassification };

/**
 * The request flow of the spec: decode → budget → allowlist → attempts → per attempt encode, call,
 * classify, fall back → translate the answer → record usage. Errors leave as GatewayErrors.
 */
export class Dispatcher {
  readonly #deps: DispatchDeps;

  constructor(deps: DispatchDeps) {
    this.#deps = deps;
  }

  /** Handles one model request and returns the client's response; observers hear about it once. */
  async handle(input: DispatchInput): Promise<Response> {
    const deps = this.#deps;
    const trace: RequestTrace = {
      input,
      startedAt: deps.now(),
      model: modelOf(input),
      providerId: "",
      status: 0,
      streamed: false,
      responseBody: "",
      error: "",
      latencyMs: 0,
    };
    let deferred = false;
    const finish = () => {
      trace.latencyMs = deps.now() - trace.startedAt;
      for (const observer of deps.observers) observer.finished(trace);
    };
    for (const observer of deps.observers) observer.started(trace);
    try {
      const response = await this.#handle(input, trace, () => {
        deferred = true;
        return finish;
      });
      if (!deferred) finish();
      return response;
    } catch (error) {
      trace.status = error instanceof GatewayError ? error.status : 500;
      trace.error = error instanceof Error ? error.message : String(error);
      finish();
      throw error;
    }
  }

  async #handle(input: DispatchInput, trace: RequestTrace, defer: () => () => void): Promise<Response> {
    const deps = this.#deps;
    const clientCodec = codecFor(input.surface);
    const request = clientCodec.decodeRequest(input.body, input.decode);
    trace.model = request.model;
    trace.streamed = request.stream;
    const now = deps.now();
    const settings = deps.control.settings;
    deps.budgets.check(input.identity.kind === "db" ? input.identity.keyId : null, now);
    const table = deps.table();
    if (
      input.identity.kind === "db" && input.identity.allowedModels.length > 0 &&
      !isModelAllowed(input.identity.allowedModels, request.model, table)
    ) {
      throw new GatewayError(
        403,
        "model_not_allowed",
        `This API key is not allowed to use model "${request.model}"`,
      );
    }
    const plan = deps.routing.resolve(table, request.model, settings, now);
    if (plan.kind === "unknown") throw new GatewayError(404, "not_found", plan.message);
    if (plan.kind === "all_cooling") {
      const message = allCoolingMessage(plan.model, plan.retryAfterSeconds);
      throw new GatewayError(503, "unavailable", message, {
        headers: { "retry-after": String(plan.retryAfterSeconds) },
        fixedBody: { detail: message },
      });
    }
    let last: { providerId: string; message: string } | null = null;
    for (const attempt of plan.attempts) {
      if (input.signal.aborted) throw new GatewayError(499, "invalid_request", "client disconnected");
      if (last !== null && deps.routing.isCooling(attempt.account.id, deps.control.settings, deps.now())) {
        continue;
      }
      trace.providerId = attempt.account.id;
      const outcome = await this.#attempt(input, clientCodec, request, attempt, trace, defer);
      if (outcome.kind === "success") return outcome.response;
      last = { providerId: attempt.account.id, message: outcome.message };
    }
    const message = exhaustedMessage(last?.providerId ?? "none", last?.message ?? "no attempt could be made");
    throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
  }

  async #attempt(
    input: DispatchInput,
    clientCodec: Codec,
    request: NeutralRequest,
    attempt: Attempt,
    trace: RequestTrace,
    defer: () => () => void,
  ): Promise<AttemptOutcome> {
    const deps = this.#deps;
    const started = deps.now();
    const provider = deps.control.providers.find((p) => p.id === attempt.account.id);
    const preset = provider ? presetFor(provider.apiType) : null;
    if (!provider || !preset) {
      const message = `api_type "${attempt.account.apiType}" cannot be called by this gateway build`;
      return {
        kind: "failure",
        message,
        classification: { fallback: true, cooldownKind: null, retryAfterMs: null },
      };
    }
    const upstreamCodec = codecFor(preset.format);
    const encoded = upstreamCodec.encodeRequest(request, attempt.upstreamModel);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: request.stream ? "text/event-stream" : "application/json",
      ...preset.authHeaders(provider.apiKey),
      ...forwardedHeaders(preset.format, input.clientHeaders),
    };
    const outcome = await callUpstream({
      url: preset.url(provider.baseUrl, attempt.upstreamModel, request.stream),
      headers,
      body: JSON.stringify(encoded.body),
      client: deps.clients.get(provider.id, fingerprint(provider)),
      signal: input.signal,
      headersTimeoutMs: deps.timeouts.headersMs,
      idleTimeoutMs: deps.timeouts.idleMs,
    });
    const record = (status: number, error: string) =>
      deps.recorder.record({
        clientFormat: input.surface,
        identity: input.identity,
        request,
        routeModel: attempt.routeModel,
        upstreamModel: attempt.upstreamModel,
        providerId: provider.id,
        status,
        usage: null,
        latencyMs: deps.now() - started,
        streamed: request.stream,
        error,
      }, deps.now());
    const fail = (status: number, message: string, classification: FailureClassification): AttemptOutcome => {
      record(status, message);
      deps.routing.fail(provider.id, classification, message, deps.control.settings, deps.now());
      if (!classification.fallback) {
        throw new GatewayError(status, status === 404 ? "not_found" : "invalid_request", message, {
          upstreamBody: message,
        });
      }
      return { kind: "failure", message, classification };
    };
    if (outcome.kind === "network") {
      return fail(
        0,
        `${outcome.reason}: ${outcome.message}`,
        classifyUpstreamFailure({ kind: "network", reason: outcome.reason }),
      );
    }
    if (outcome.status >= 400) {
      const text = await readLimited(outcome.body, ERROR_BODY_LIMIT);
      const classification = classifyUpstreamFailure({
        kind: "status",
        status: outcome.status,
        bodyText: text,
        retryAfterHeader: outcome.headers.get("retry-after"),
        now: deps.now(),
      });
      return fail(outcome.status, `HTTP ${outcome.status}: ${summarize(text)}`, classification);
    }
    const contentType = outcome.headers.get("content-type") ?? "";
    const ctx: EncodeContext = {
      requestModel: request.model,
      endpoint: input.decode.endpoint,
      now: Math.floor(deps.now() / 1000),
    };
    if (!request.stream || (contentType.includes("json") && !contentType.includes("ndjson"))) {
      const text = await readLimited(outcome.body, Number.POSITIVE_INFINITY);
      let response: NeutralResponse;
      try {
        response = upstreamCodec.decodeResponse(JSON.parse(text));
      } catch (error) {
        const message = error instanceof GatewayError
          ? error.message
          : `upstream sent a body that is not ${preset.format} JSON: ${summarize(text)}`;
        return fail(502, message, classifyUpstreamFailure({ kind: "status", status: 502, bodyText: text }));
      }
      if (isEmptyAnswer(response)) {
        return fail(
          502,
          "upstream returned an empty answer",
          classifyUpstreamFailure({ kind: "status", status: 502, bodyText: "" }),
        );
      }
      const latency = deps.now() - started;
      deps.recorder.record({
        clientFormat: input.surface,
        identity: input.identity,
        request,
        routeModel: attempt.routeModel,
        upstreamModel: attempt.upstreamModel,
        providerId: provider.id,
        status: 200,
        usage: response.usage.inputTotal === 0 && response.usage.output === 0 ? null : response.usage,
        outputText: outputTextOf(response),
        latencyMs: latency,
        streamed: false,
      }, deps.now());
      deps.routing.succeed(provider.id);
      if (request.stream) {
        // The upstream ignored stream:true; answer as a stream anyway.
        trace.status = 200;
        trace.responseBody = outputTextOf(response);
        const events = ReadableStream.from(responseEvents(response));
        return {
          kind: "success",
          response: streamResponse(clientCodec, events.pipeThrough(clientCodec.encodeStream(ctx))),
        };
      }
      const answer = JSON.stringify(clientCodec.encodeResponse(response, ctx));
      trace.status = 200;
      trace.responseBody = answer;
      return {
        kind: "success",
        response: new Response(answer, { headers: { "content-type": "application/json" } }),
      };
    }
    return await this.#stream(
      input,
      clientCodec,
      upstreamCodec,
      request,
      attempt,
      provider,
      outcome.body,
      started,
      ctx,
      fail,
      trace,
      defer,
    );
  }

  async #stream(
    input: DispatchInput,
    clientCodec: Codec,
    upstreamCodec: Codec,
    request: NeutralRequest,
    attempt: Attempt,
    provider: ProviderConfig,
    body: ReadableStream<Uint8Array>,
    started: number,
    ctx: EncodeContext,
    fail: (status: number, message: string, classification: FailureClassification) => AttemptOutcome,
    trace: RequestTrace,
    defer: () => () => void,
  ): Promise<AttemptOutcome> {
    const deps = this.#deps;
    const passthrough = clientCodec.format === upstreamCodec.format;
    const [meterFrames, rawFrames] = upstreamFrames(body, upstreamCodec).tee();
    let committed = false;
    let finishTrace = () => {};
    const onDone = (summary: StreamSummary) => {
      if (!committed) return;
      const ok = summary.end === "completed" && summary.error === null;
      trace.status = ok ? 200 : summary.end === "cancelled" ? 499 : 502;
      trace.responseBody = summary.outputText;
      trace.error = summary.error ?? (summary.end === "cancelled" ? "client disconnected" : "");
      finishTrace();
      deps.recorder.record({
        clientFormat: input.surface,
        identity: input.identity,
        request,
        routeModel: attempt.routeModel,
        upstreamModel: attempt.upstreamModel,
        providerId: provider.id,
        status: ok ? 200 : summary.end === "cancelled" ? 499 : 502,
        usage: summary.usageReported ? summary.usage : null,
        outputText: summary.outputText,
        latencyMs: deps.now() - started,
        streamed: true,
        error: summary.error ?? (summary.end === "cancelled" ? "client disconnected" : ""),
      }, deps.now());
      if (ok) deps.routing.succeed(provider.id);
    };
    const events = meterFrames.pipeThrough(upstreamCodec.decodeStream()).pipeThrough(streamMeter(onDone));
    const reader = events.getReader();
    const peek = await peekStream(reader);
    if (peek.kind !== "committed") {
      await Promise.allSettled([reader.cancel(), rawFrames.cancel()]);
      const message = peek.kind === "error" ? peek.message : "upstream stream ended without any content";
      const status = peek.kind === "error" ? 502 : 502;
      return fail(status, message, classifyUpstreamFailure({ kind: "status", status, bodyText: message }));
    }
    committed = true;
    finishTrace = defer();
    if (!passthrough) {
      // Not awaited: a tee branch's cancel settles only once the other branch is cancelled too.
      rawFrames.cancel().catch(() => {});
      const out = replay(peek.buffered, reader).pipeThrough(clientCodec.encodeStream(ctx));
      return { kind: "success", response: streamResponse(clientCodec, out) };
    }
    // Same format on both sides: the client gets the upstream's own frames; the events feed the meter.
    drain(reader);
    const repaired = clientCodec.format === "chat_completions"
      ? rawFrames.pipeThrough(chatCompletionsPassthrough({ now: ctx.now, fallbackId: deps.newId() }))
      : rawFrames.pipeThrough(
        new TransformStream({ transform: (frame, c) => c.enqueue(frameText(frame, clientCodec.framing)) }),
      );
    const linked = repaired.pipeThrough(
      new TransformStream<string, string>({
        cancel: (reason) => {
          reader.cancel(reason).catch(() => {});
        },
      }),
    );
    return { kind: "success", response: streamResponse(clientCodec, linked) };
  }
}

function streamResponse(codec: Codec, text: ReadableStream<string>): Response {
  return new Response(text.pipeThrough(new TextEncoderStream()), {
    headers: {
      "content-type": codec.framing === "ndjson"
        ? "application/x-ndjson"
        : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/** Client headers a messages upstream needs (API version and beta flags). */
function forwardedHeaders(format: WireFormat, headers: Headers): Record<string, string> {
  if (format !== "messages") return {};
  const out: Record<string, string> = {
    "anthropic-version": headers.get("anthropic-version") ?? DEFAULT_ANTHROPIC_VERSION,
  };
  const beta = headers.get("anthropic-beta");
  if (beta) out["anthropic-beta"] = beta;
  return out;
}

function fingerprint(provider: ProviderConfig): string {
  return `${provider.baseUrl}|${provider.apiType}`;
}

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < limit) {
      const next = await reader.read();
      if (next.done) return text + decoder.decode();
      text += decoder.decode(next.value, { stream: true });
    }
    await reader.cancel();
    return text.slice(0, limit);
  } catch (error) {
    return text || `(body unreadable: ${(error as Error).message})`;
  }
}

function summarize(text: string): string {
  const compact = text.replace(/\s+/g, " ").trim();
  return compact.length > 300 ? `${compact.slice(0, 300)}…` : compact || "(empty body)";
}

/** An answer with nothing in it is a failure, unless the upstream says why (length, filter). */
function isEmptyAnswer(response: NeutralResponse): boolean {
  const hasContent = response.parts.some((p) =>
    p.kind === "toolCall" || (p.kind === "text" && p.text !== "") ||
    (p.kind === "reasoning" && (p.text !== "" || !!p.redactedData))
  );
  return !hasContent && response.finish.unified !== "length" && response.finish.unified !== "content_filter";
}

function outputTextOf(response: NeutralResponse): string {
  let text = "";
  for (const part of response.parts) {
    if (part.kind === "text" || part.kind === "reasoning") text += part.text;
    else if (part.kind === "toolCall") text += part.name + part.arguments;
  }
  return text;
}

/** A complete response as neutral stream events (for upstreams that ignore stream:true). */
export function* responseEvents(response: NeutralResponse): Generator<StreamEvent> {
  yield { type: "start", id: response.id, model: response.model, created: response.created };
  let index = 0;
  for (const part of response.parts) {
    switch (part.kind) {
      case "text":
        yield { type: "blockStart", index, kind: "text" };
        yield { type: "textDelta", index, text: part.text };
        break;
      case "reasoning":
        yield {
          type: "blockStart",
          index,
          kind: "reasoning",
          redactedData: part.redactedData,
          family: part.family,
        };
        if (part.text) yield { type: "textDelta", index, text: part.text };
        if (part.signature) yield { type: "signatureDelta", index, signature: part.signature };
        break;
      case "toolCall":
        yield { type: "blockStart", index, kind: "toolCall", id: part.id, name: part.name };
        yield { type: "argumentsDelta", index, json: part.arguments };
        break;
      case "image":
      case "toolResult":
        continue;
    }
    yield { type: "blockEnd", index };
    index++;
  }
  yield { type: "usage", usage: response.usage };
  yield { type: "finish", finish: response.finish };
}

function modelOf(input: DispatchInput): string {
  const body = input.body as Record<string, unknown> | null;
  if (input.decode.pathModel) return input.decode.pathModel;
  return typeof body?.model === "string" ? body.model : "";
}
