import {
  applyAdjustments,
  capabilitiesFor,
  type ClientKind,
  imagesToPrefetch,
  isPrivateHost,
  prefetchImages,
} from "../adjustments/mod.ts";
import type { ProviderConfig } from "../config/mod.ts";
import { callUpstream, type UpstreamBody } from "../executors/call_upstream.ts";
import type { ProviderClients } from "../executors/http_clients.ts";
import { DEFAULT_ANTHROPIC_VERSION, presetFor } from "../executors/presets.ts";
import {
  GatewayError,
  type NeutralRequest,
  type NeutralResponse,
  type StreamEvent,
  type WireFormat,
} from "../model/mod.ts";
import { type Attempt, classifyUpstreamFailure, type FailureClassification } from "../routing/mod.ts";
import { chatCompletionsPassthrough, codecFor, type EncodeContext } from "../wire/mod.ts";
import type { Codec } from "../wire/codec.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { chainSteps, type StageOutput, type StageSteps } from "../wire/shared/mod.ts";
import type { ControlPlane } from "./control_plane.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import type { RoutingService } from "./routing_service.ts";
import { passthroughObserver, streamMeter, type StreamSummary, StreamTally } from "./stream_meter.ts";
import { frameSteps, frameText, openStream } from "./upstream_stream.ts";
import type { UsageRecorder } from "./usage_recorder.ts";

/** Upstream timeouts (ms). */
export interface UpstreamTimeouts {
  readonly headersMs: number;
  readonly idleMs: number;
}

/** Defaults: generous for slow non-stream generations, strict enough to notice dead streams. */
export const DEFAULT_TIMEOUTS: UpstreamTimeouts = { headersMs: 300_000, idleMs: 120_000 };
/** Upstream error bodies are read up to this size for classification and messages. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** The long-lived parts one attempt uses. */
export interface AttemptDeps {
  readonly control: ControlPlane;
  readonly routing: RoutingService;
  readonly clients: ProviderClients;
  readonly recorder: UsageRecorder;
  readonly now: () => number;
  readonly newId: () => string;
  readonly timeouts: UpstreamTimeouts;
  /** Used for image prefetch. */
  readonly fetch: typeof fetch;
}

/** Who asked and how: the parts of the client request every attempt needs. */
export interface CallerContext {
  readonly surface: WireFormat;
  readonly identity: ClientIdentity;
  readonly clientHeaders: Headers;
  readonly clientKind: ClientKind;
  /** The client connection's signal (see DispatchInput.clientSignal). */
  readonly clientSignal: () => AbortSignal;
  readonly endpoint?: string;
  /** Called once when a stream is committed; returns what to call when it is over. */
  readonly onStreamCommitted: () => (summary: StreamSummary) => void;
}

/** The outcome of one attempt. */
export type AttemptOutcome =
  | { readonly kind: "answer"; readonly response: NeutralResponse }
  | { readonly kind: "stream"; readonly response: Response }
  | { readonly kind: "failure"; readonly message: string; readonly classification: FailureClassification };

/**
 * One try against one account: adjust the request for the target, encode, call, classify failures
 * (cooling the account and recording a usage row), and return a neutral answer or a committed stream.
 * Non-fallback upstream errors are thrown as GatewayErrors: the client sees them at once.
 */
export async function runAttempt(
  deps: AttemptDeps,
  caller: CallerContext,
  original: NeutralRequest,
  attempt: Attempt,
): Promise<AttemptOutcome> {
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
  const adjusting = adjustForTarget(deps, caller, original, attempt, provider, preset.format);
  const request = adjusting instanceof Promise ? await adjusting : adjusting;
  const upstreamCodec = codecFor(preset.format);
  const encoded = upstreamCodec.encodeRequest(request.request, attempt.upstreamModel);
  const outcome = await callUpstream({
    url: preset.url(provider.baseUrl, attempt.upstreamModel, request.request.stream),
    headers: {
      "content-type": "application/json",
      accept: request.request.stream ? "text/event-stream" : "application/json",
      ...preset.authHeaders(provider.apiKey),
      ...forwardedHeaders(preset.format, caller.clientHeaders, request.headers),
    },
    body: JSON.stringify(encoded.body),
    client: deps.clients.get(provider.id, `${provider.baseUrl}|${provider.apiType}`),
    clientSignal: caller.clientSignal,
    headersTimeoutMs: deps.timeouts.headersMs,
    idleTimeoutMs: deps.timeouts.idleMs,
  });
  const record = (status: number, response: NeutralResponse | null, error = "", outputText = "") =>
    deps.recorder.record({
      clientFormat: caller.surface,
      identity: caller.identity,
      request: original,
      routeModel: attempt.routeModel,
      upstreamModel: attempt.upstreamModel,
      providerId: provider.id,
      status,
      usage: response && (response.usage.inputTotal > 0 || response.usage.output > 0) ? response.usage : null,
      outputText,
      latencyMs: deps.now() - started,
      streamed: original.stream,
      error,
    }, deps.now());
  const fail = (status: number, message: string, classification: FailureClassification): AttemptOutcome => {
    record(status, null, message);
    deps.routing.fail(provider.id, classification, message, deps.control.settings, deps.now());
    if (!classification.fallback) {
      throw new GatewayError(status, status === 404 ? "not_found" : "invalid_request", message, {
        upstreamBody: message,
      });
    }
    return { kind: "failure", message, classification };
  };
  const clientLeft = () => {
    record(499, null, "client disconnected");
    return new GatewayError(499, "invalid_request", "client disconnected before the upstream answered");
  };
  if (outcome.kind === "cancelled") throw clientLeft();
  if (outcome.kind === "network") {
    const classification = classifyUpstreamFailure({ kind: "network", reason: outcome.reason });
    return fail(0, `${outcome.reason}: ${outcome.message}`, classification);
  }
  if (outcome.status >= 400) {
    const text = await outcome.readText(ERROR_BODY_LIMIT);
    const classification = classifyUpstreamFailure({
      kind: "status",
      status: outcome.status,
      bodyText: text,
      retryAfterHeader: outcome.header("retry-after"),
      now: deps.now(),
    });
    return fail(outcome.status, `HTTP ${outcome.status}: ${summarize(text)}`, classification);
  }
  const contentType = outcome.header("content-type") ?? "";
  if (!request.request.stream || (contentType.includes("json") && !contentType.includes("ndjson"))) {
    const text = await outcome.readText();
    if (outcome.clientGone()) throw clientLeft();
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
      const classification = classifyUpstreamFailure({ kind: "status", status: 502, bodyText: "" });
      return fail(502, "upstream returned an empty answer", classification);
    }
    record(200, response, "", outputTextOf(response));
    deps.routing.succeed(provider.id, provider.prefix, identityRoutingKey(caller.identity));
    return { kind: "answer", response };
  }
  return await streamAttempt(
    deps,
    caller,
    upstreamCodec,
    original,
    attempt,
    provider,
    outcome.body(),
    started,
    fail,
  );
}

async function streamAttempt(
  deps: AttemptDeps,
  caller: CallerContext,
  upstreamCodec: Codec,
  request: NeutralRequest,
  attempt: Attempt,
  provider: ProviderConfig,
  body: UpstreamBody,
  started: number,
  fail: (status: number, message: string, classification: FailureClassification) => AttemptOutcome,
): Promise<AttemptOutcome> {
  const clientCodec = codecFor(caller.surface);
  const ctx = encodeContext(request, caller, deps.now());
  let finished: ((summary: StreamSummary) => void) | null = null;
  const tally = new StreamTally((summary) => {
    if (finished === null) return;
    const ok = summary.end === "completed" && summary.error === null;
    finished(summary);
    deps.recorder.record({
      clientFormat: caller.surface,
      identity: caller.identity,
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
    if (ok) deps.routing.succeed(provider.id, provider.prefix, identityRoutingKey(caller.identity));
  });
  const steps = chainSteps(
    frameSteps(upstreamCodec),
    clientSteps(clientCodec, upstreamCodec, ctx, tally, deps.newId),
  );
  const opened = await openStream(body, steps, tally);
  if (opened.kind !== "committed") {
    return fail(
      502,
      opened.message,
      classifyUpstreamFailure({ kind: "status", status: 502, bodyText: opened.message }),
    );
  }
  finished = caller.onStreamCommitted();
  return { kind: "stream", response: streamResponse(clientCodec, opened.body) };
}

/** Upstream frames → client wire text, feeding the tally on the way. */
function clientSteps(
  clientCodec: Codec,
  upstreamCodec: Codec,
  ctx: EncodeContext,
  tally: StreamTally,
  newId: () => string,
): StageSteps<Frame, string> {
  const meteredEvents = () => chainSteps(upstreamCodec.decodeStream().steps, streamMeter(tally));
  if (clientCodec.format !== upstreamCodec.format) {
    return chainSteps(meteredEvents(), clientCodec.encodeStream(ctx).steps);
  }
  if (clientCodec.format === "chat_completions") {
    // The passthrough parses every chunk anyway; its observer meters the stream (one parse per chunk).
    return chatCompletionsPassthrough({
      now: ctx.now,
      fallbackId: newId(),
      observer: passthroughObserver(tally),
    })
      .steps;
  }
  // Same format on both sides: the client gets the upstream's own frames; decoded events feed the meter.
  const meter = meteredEvents();
  const ignore: StageOutput<StreamEvent> = { enqueue: () => {} };
  return {
    transform(frame, out) {
      meter.transform(frame, ignore);
      out.enqueue(frameText(frame, clientCodec.framing));
    },
    flush() {
      meter.flush?.(ignore);
    },
  };
}

/** Whether a provider's base URL is local, judged once per provider config (configs are replaced on reload). */
const localProviders = new WeakMap<ProviderConfig, boolean>();

/** The request as adjusted for one target, with the headers the adjustments ask for. */
type AdjustedRequest = { request: NeutralRequest; headers: Readonly<Record<string, string>> };

/**
 * Per-attempt adjustments (thinking, images, Claude Code, reasoning echo) and image prefetch. A promise
 * only when images must be fetched: the common case costs no microtask turn.
 */
function adjustForTarget(
  deps: AttemptDeps,
  caller: CallerContext,
  request: NeutralRequest,
  attempt: Attempt,
  provider: ProviderConfig,
  format: WireFormat,
): AdjustedRequest | Promise<AdjustedRequest> {
  let providerIsLocal = localProviders.get(provider);
  if (providerIsLocal === undefined) {
    providerIsLocal = isPrivateHost(new URL(provider.baseUrl));
    localProviders.set(provider, providerIsLocal);
  }
  const target = {
    upstreamFormat: format,
    model: attempt.upstreamModel,
    capabilities: capabilitiesFor(
      attempt.upstreamModel,
      provider.capabilities?.[attempt.upstreamModel] ?? {},
    ),
    clientKind: caller.clientKind,
    providerIsLocal,
  };
  const adjusted = applyAdjustments(request, target);
  const urls = imagesToPrefetch(adjusted.request, target);
  if (urls.length === 0) return adjusted;
  return prefetchImages(adjusted.request, urls, { fetch: deps.fetch, allowPrivate: providerIsLocal })
    .then((fetched) => ({ request: fetched.request, headers: adjusted.headers }));
}

/** The encode context for answering a client. */
export function encodeContext(request: NeutralRequest, caller: CallerContext, nowMs: number): EncodeContext {
  return { requestModel: request.model, endpoint: caller.endpoint, now: Math.floor(nowMs / 1000) };
}

/** A streaming HTTP response in a codec's framing. */
export function streamResponse(codec: Codec, body: ReadableStream<Uint8Array> | string): Response {
  return new Response(body, {
    headers: {
      "content-type": codec.framing === "ndjson"
        ? "application/x-ndjson"
        : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/** Client headers a messages upstream needs (API version, beta flags merged with adjustment betas). */
function forwardedHeaders(
  format: WireFormat,
  headers: Headers,
  adjusted: Readonly<Record<string, string>>,
): Record<string, string> {
  if (format !== "messages") return {};
  const out: Record<string, string> = {
    "anthropic-version": headers.get("anthropic-version") ?? DEFAULT_ANTHROPIC_VERSION,
  };
  const betas = [headers.get("anthropic-beta"), adjusted["anthropic-beta"]].filter((b): b is string => !!b);
  const unique = [
    ...new Set(betas.flatMap((b) => b.split(",").map((s) => s.trim()).filter((s) => s !== ""))),
  ];
  if (unique.length > 0) out["anthropic-beta"] = unique.join(",");
  return out;
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

/** Text, reasoning and tool calls of an answer, for token estimates and logs. */
export function outputTextOf(response: NeutralResponse): string {
  let text = "";
  for (const part of response.parts) {
    if (part.kind === "text" || part.kind === "reasoning") text += part.text;
    else if (part.kind === "toolCall") text += part.name + part.arguments;
  }
  return text;
}

/** A complete response as neutral stream events (stream clients answered from a whole response). */
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
