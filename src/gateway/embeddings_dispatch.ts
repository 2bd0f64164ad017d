/**
 * Embeddings through the same keys, allowlists, budgets, routing, fallback, cooldowns, usage rows and
 * request logs as chat. A request from any embeddings client format (OpenAI, Gemini, Ollama) goes to any
 * target that can serve it: OpenAI-compatible providers at `<base>/embeddings`, Gemini ones at
 * `models/<m>:batchEmbedContents`. Inputs over a target's per-call limit are split and merged in order.
 */
import { embeddingCost } from "../accounting/mod.ts";
import { isSubscriptionKind } from "../executors/oauth/mod.ts";
import { operationUrl, upstreamModelName } from "../executors/presets.ts";
import {
  type EmbeddingsFormat,
  GatewayError,
  type GatewayWarning,
  type NeutralEmbeddingsRequest,
  type NeutralEmbeddingsResponse,
  type NeutralRequest,
  type Usage,
} from "../model/mod.ts";
import { type Attempt, kindOfModel } from "../routing/mod.ts";
import {
  type EmbeddingsCodec,
  embeddingsCodecFor,
  type EmbeddingsEndpoint,
  mergeEmbeddingsResponses,
  splitEmbeddingsRequest,
} from "../wire/embeddings.ts";
import { type Answer, jsonAnswer } from "./answer.ts";
import { admitRequest } from "./admission.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import {
  callKindUpstream,
  jsonUpstreamCall,
  kindAttemptEnded,
  type KindAttemptResult,
  type KindDeps,
  type KindFailure,
  serveKindAttempts,
} from "./kind_attempts.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";
import type { CallTarget } from "./prepare_call.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";
import type { RequestTiming } from "./request_timing.ts";
import type { LongStrings } from "../long_strings.ts";

/** Who asked, and the decoded request with the endpoint its answer is shaped for. */
export interface EmbeddingsInput {
  readonly request: NeutralEmbeddingsRequest;
  readonly endpoint: EmbeddingsEndpoint;
  readonly identity: ClientIdentity;
  readonly clientSignal: () => AbortSignal;
  readonly timing: RequestTiming;
  /** The pieces of the client body's long strings (DispatchInput.longStrings). */
  readonly longStrings?: LongStrings;
}

/** What the embeddings flow needs from the runtime: the non-chat kinds' deps. */
export type EmbeddingsDeps = KindDeps;

/** Rough characters per token, for upstreams that report no usage (Gemini): a billing estimate only. */
const CHARS_PER_TOKEN = 4;

/** The embeddings format a target speaks, or null when its API type serves no embeddings. */
function upstreamFormatOf(target: CallTarget): EmbeddingsFormat | null {
  if (isSubscriptionKind(target.provider.apiType)) return null;
  if (target.preset.format === "chat_completions") return "openai";
  if (target.preset.format === "generate_content") return "gemini";
  return null;
}

/** Serves one embeddings request to its end (the lifecycle completes or fails here). */
export async function serveEmbeddings(
  deps: EmbeddingsDeps,
  input: EmbeddingsInput,
  lifecycle: RequestLifecycle,
): Promise<Answer> {
  const { request, identity } = input;
  const table = deps.table();
  const placeholder = placeholderRequest(request);
  lifecycle.decoded(placeholder, request.model);
  const admitted = admitRequest(deps, lifecycle, identity, "chat_completions", placeholder, table);
  if (admitted instanceof Promise) await admitted;
  const hasTokens = request.inputs.some((i) => i.kind === "tokens");
  return await serveKindAttempts(deps, table, {
    model: request.model,
    identity,
    clientSignal: input.clientSignal,
    canServe: (a, target) => {
      const format = upstreamFormatOf(target);
      if (format === null || kindOfModel(a.upstreamModel, a.account.kinds) !== "embedding") return false;
      return !hasTokens || embeddingsCodecFor(format).capabilities.tokenInputs;
    },
    whyNone: (first) => {
      const kind = first === undefined ? undefined : kindOfModel(first.upstreamModel, first.account.kinds);
      const why = first !== undefined && kind !== "embedding"
        ? `"${first.upstreamModel}" is a ${kind} model, not an embedding model`
        : hasTokens
        ? "token-id inputs need an OpenAI-compatible provider"
        : "its providers cannot serve embeddings (OpenAI-compatible and Gemini providers can)";
      return `Model "${request.model}" cannot be used for embeddings: ${why}`;
    },
    run: (attempt, target, span) => runEmbeddingsAttempt(deps, input, attempt, target, lifecycle, span),
  }, lifecycle);
}

/** The chat-shaped stand-in the usage recorder and admission read: the model and the text to embed. */
function placeholderRequest(request: NeutralEmbeddingsRequest): NeutralRequest {
  const text = request.inputs.map((i) => i.kind === "text" ? i.text : "").join("\n");
  return {
    model: request.model,
    system: [],
    messages: text === "" ? [] : [{ role: "user", parts: [{ kind: "text", text }] }],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
  };
}

/** The upstream URL of an encoded embeddings call on this target. */
function upstreamUrl(target: CallTarget, format: EmbeddingsFormat, model: string, endpoint: string): string {
  const base = target.provider.baseUrl.replace(/\/+$/, "");
  if (format === "gemini") return `${base}/v1beta/models/${encodeURIComponent(model)}:${endpoint}`;
  if (format === "ollama") return `${base}/api/embed`;
  return operationUrl(target.preset, base, "/embeddings", model);
}

async function runEmbeddingsAttempt(
  deps: EmbeddingsDeps,
  input: EmbeddingsInput,
  attempt: Attempt,
  target: CallTarget,
  lifecycle: RequestLifecycle,
  span: AttemptTrace,
): Promise<KindAttemptResult> {
  const format = upstreamFormatOf(target)!;
  const codec = embeddingsCodecFor(format);
  const started = deps.now();
  const write = (status: number, usage: Usage | null, error: string) => {
    const redacted = error === "" ? error : deps.control.redactor.redact(error);
    const row = deps.recorder.record({
      clientFormat: "embeddings",
      identity: input.identity,
      request: placeholderRequest(input.request),
      routeModel: attempt.routeModel,
      upstreamModel: attempt.upstreamModel,
      providerId: target.provider.rowId,
      accountId: target.provider.id,
      status,
      usage: usage ?? { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      latencyMs: deps.now() - started,
      streamed: false,
      error: redacted,
      cost: (price) => embeddingCost(usage?.inputTotal ?? 0, price),
    }, deps.now());
    // Every write ends the attempt (a failed batch ends it early).
    kindAttemptEnded(lifecycle, span, row, { status, error: redacted, usage });
  };
  const parts: { start: number; inputs: number; response: NeutralEmbeddingsResponse }[] = [];
  const warnings: GatewayWarning[] = [];
  for (const batch of splitEmbeddingsRequest(input.request, codec.capabilities.maxInputsPerCall)) {
    const part = await callBatch(deps, input, codec, format, attempt, target, batch.request, write, span);
    if (part.kind === "failure") return part;
    warnings.push(...part.warnings);
    parts.push({ start: batch.start, inputs: batch.request.inputs.length, response: part.response });
  }
  const merged = mergeEmbeddingsResponses(parts, input.request.inputs.length);
  const usage = merged.usage ?? { inputTokens: estimateTokens(input.request), estimated: true };
  write(200, {
    inputTotal: usage.inputTokens,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    ...(usage.estimated ? { estimated: true } : {}),
  }, "");
  deps.routing.succeed(target.provider.id, target.provider.prefix, identityRoutingKey(input.identity));
  lifecycle.warned(warnings);
  const clientCodec = embeddingsCodecFor(input.request.source);
  const body = clientCodec.encodeResponse({ ...merged, usage }, {
    requestModel: input.request.model,
    endpoint: input.endpoint,
    encoding: input.request.encoding,
  });
  const text = JSON.stringify(body);
  // The request log keeps how many vectors came back, never the vectors.
  const logged = `${merged.vectors.length} vector(s), ${text.length} bytes of JSON`;
  return {
    kind: "answer",
    answer: lifecycle.complete(jsonAnswer(body, lifecycle.trace.warnings, text), logged, false),
  };
}

/** Tokens of the request's text by a character estimate (token-id inputs count their ids). */
function estimateTokens(request: NeutralEmbeddingsRequest): number {
  let tokens = 0;
  for (const i of request.inputs) {
    tokens += i.kind === "tokens" ? i.tokens.length : Math.ceil(i.text.length / CHARS_PER_TOKEN);
  }
  return tokens;
}

type BatchResult =
  | {
    readonly kind: "part";
    readonly response: NeutralEmbeddingsResponse;
    readonly warnings: readonly GatewayWarning[];
  }
  | KindFailure;

/** One upstream call of an attempt (one batch); failures are classified and cool the account down. */
async function callBatch(
  deps: EmbeddingsDeps,
  input: EmbeddingsInput,
  codec: EmbeddingsCodec,
  format: EmbeddingsFormat,
  attempt: Attempt,
  target: CallTarget,
  request: NeutralEmbeddingsRequest,
  write: (status: number, usage: Usage | null, error: string) => void,
  span: AttemptTrace,
): Promise<BatchResult> {
  const { preset } = target;
  const encoded = codec.encodeRequest(request, upstreamModelName(preset, attempt.upstreamModel));
  const call = await jsonUpstreamCall(
    deps,
    target,
    input.clientSignal,
    upstreamUrl(target, format, attempt.upstreamModel, encoded.endpoint),
    encoded.body,
    span.headers,
    input.longStrings,
  );
  const outcome = await callKindUpstream(deps, call, target, input.timing, (status, message) => {
    write(status, null, message);
  });
  if (outcome.kind === "failure") return outcome;
  let value: unknown;
  try {
    const text = await input.timing.waitFor(outcome.readAnswer(deps.limits.maxAnswerBytes));
    value = JSON.parse(text);
  } catch (error) {
    // Too large, cut off or not JSON: the upstream's fault, never a 500.
    const message = `The upstream's answer could not be read: ${(error as Error).message}`;
    write(502, null, message);
    throw new GatewayError(502, "upstream", message);
  }
  try {
    const response = codec.decodeResponse(value, {
      inputs: request.inputs.length,
      upstreamModel: attempt.upstreamModel,
    });
    return { kind: "part", response, warnings: encoded.warnings };
  } catch (error) {
    write(502, null, (error as Error).message);
    throw error;
  }
}
