/**
 * Rerank through the same keys, allowlists, budgets, routing, fallback, cooldowns, usage rows, request logs and
 * traces as chat. A `/v1/rerank` (Cohere v1, Jina) or `/v2/rerank` (Cohere v2) request goes to any
 * OpenAI-compatible provider whose model is a reranker, at `<base_url>/rerank` (Jina, Cohere, vLLM, Infinity
 * and others expose it there), in the v1 shape, or the v2 one for a base URL ending in `/v2` (Cohere's v2 API).
 */
import { rerankCost } from "../accounting/mod.ts";
import { isSubscriptionKind } from "../executors/oauth/mod.ts";
import {
  GatewayError,
  type NeutralRequest,
  type NeutralRerankRequest,
  type NeutralRerankResponse,
  type Usage,
} from "../model/mod.ts";
import { type Attempt, kindOfModel } from "../routing/mod.ts";
import { rerankCodecFor, rerankFormatOfBase } from "../wire/rerank.ts";
import { type Answer, jsonAnswer } from "./answer.ts";
import { admitRequest } from "./admission.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import {
  callKindUpstream,
  jsonUpstreamCall,
  kindAttemptEnded,
  type KindAttemptResult,
  type KindDeps,
  serveKindAttempts,
} from "./kind_attempts.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";
import type { CallTarget } from "./prepare_call.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";
import type { RequestTiming } from "./request_timing.ts";
import type { LongStrings } from "../long_strings.ts";

/** Who asked, and the decoded request. */
export interface RerankInput {
  readonly request: NeutralRerankRequest;
  readonly identity: ClientIdentity;
  readonly clientSignal: () => AbortSignal;
  readonly timing: RequestTiming;
  /** The pieces of the client body's long strings (DispatchInput.longStrings). */
  readonly longStrings?: LongStrings;
}

/** Whether a target's API type can serve rerank: OpenAI-compatible API-key providers. */
function servesRerank(target: CallTarget): boolean {
  return !isSubscriptionKind(target.provider.apiType) && target.preset.format === "chat_completions";
}

/** Serves one rerank request to its end (the lifecycle completes or fails here). */
export async function serveRerank(
  deps: KindDeps,
  input: RerankInput,
  lifecycle: RequestLifecycle,
): Promise<Answer> {
  const { request, identity } = input;
  const table = deps.table();
  const placeholder = placeholderRequest(request);
  lifecycle.decoded(placeholder, request.model);
  const admitted = admitRequest(deps, lifecycle, identity, "chat_completions", placeholder, table);
  if (admitted instanceof Promise) await admitted;
  return await serveKindAttempts(deps, table, {
    model: request.model,
    identity,
    clientSignal: input.clientSignal,
    canServe: (a, target) =>
      servesRerank(target) && kindOfModel(a.upstreamModel, a.account.kinds) === "rerank",
    whyNone: (first) => {
      const kind = first === undefined ? undefined : kindOfModel(first.upstreamModel, first.account.kinds);
      const why = first !== undefined && kind !== "rerank"
        ? `"${first.upstreamModel}" is ${
          kind === "embedding" ? "an embedding" : `a ${kind}`
        } model, not a rerank ` +
          "model (a provider can declare its kind: `kinds` in provider config)"
        : "its providers cannot serve rerank (OpenAI-compatible providers can, at <base_url>/rerank)";
      return `Model "${request.model}" cannot be used for rerank: ${why}`;
    },
    run: (attempt, target, span) => runRerankAttempt(deps, input, attempt, target, lifecycle, span),
  }, lifecycle);
}

/** The chat-shaped stand-in the usage recorder and admission read: the model, the query and the documents. */
function placeholderRequest(request: NeutralRerankRequest): NeutralRequest {
  const texts = [request.query];
  for (const d of request.documents) if (d.text !== undefined) texts.push(d.text);
  return {
    model: request.model,
    system: [],
    messages: [{ role: "user", parts: [{ kind: "text", text: texts.join("\n") }] }],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
  };
}

async function runRerankAttempt(
  deps: KindDeps,
  input: RerankInput,
  attempt: Attempt,
  target: CallTarget,
  lifecycle: RequestLifecycle,
  span: AttemptTrace,
): Promise<KindAttemptResult> {
  const { request } = input;
  const { provider } = target;
  const started = deps.now();
  const write = (status: number, response: NeutralRerankResponse | null, error: string) => {
    const redacted = error === "" ? error : deps.control.redactor.redact(error);
    const tokens = response?.usage?.inputTokens ?? 0;
    const usage: Usage = { inputTotal: tokens, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    const row = deps.recorder.record({
      clientFormat: "rerank",
      identity: input.identity,
      request: placeholderRequest(request),
      routeModel: attempt.routeModel,
      upstreamModel: attempt.upstreamModel,
      providerId: provider.rowId,
      accountId: provider.id,
      status,
      usage,
      latencyMs: deps.now() - started,
      streamed: false,
      error: redacted,
      // Billed in the model's unit even when the upstream said nothing (search units from the document count).
      cost: (price) =>
        response === null ? 0 : rerankCost({
          searchUnits: response.usage?.searchUnits,
          inputTokens: response.usage?.inputTokens,
          documents: request.documents.length,
        }, price),
    }, deps.now());
    kindAttemptEnded(lifecycle, span, row, {
      status,
      error: redacted,
      usage: response === null ? null : usage,
    });
  };
  const format = rerankFormatOfBase(provider.baseUrl);
  const codec = rerankCodecFor(format);
  const encoded = codec.encodeRequest(request, attempt.upstreamModel);
  const url = `${provider.baseUrl.replace(/\/+$/, "")}/rerank`;
  const call = await jsonUpstreamCall(
    deps,
    target,
    input.clientSignal,
    url,
    encoded.body,
    span.headers,
    input.longStrings,
  );
  const outcome = await callKindUpstream(deps, call, target, input.timing, (status, message) => {
    write(status, null, message);
  });
  if (outcome.kind === "failure") return outcome;
  let response: NeutralRerankResponse;
  try {
    const text = await input.timing.waitFor(outcome.readAnswer(deps.limits.maxAnswerBytes));
    response = codec.decodeResponse(JSON.parse(text), {
      documents: request.documents.length,
      topN: request.topN,
    });
  } catch (error) {
    // Too large, cut off, not JSON or not a rerank answer: the upstream's fault, never a 500.
    const message = error instanceof GatewayError
      ? error.message
      : `The upstream's answer could not be read: ${(error as Error).message}`;
    write(502, null, message);
    throw error instanceof GatewayError ? error : new GatewayError(502, "upstream", message);
  }
  write(200, response, "");
  deps.routing.succeed(provider.id, provider.prefix, identityRoutingKey(input.identity));
  lifecycle.warned(encoded.warnings);
  const body = rerankCodecFor(request.source).encodeResponse(response, {
    requestModel: request.model,
    documents: request.documents,
    returnDocuments: request.returnDocuments,
  });
  const text = JSON.stringify(body);
  return {
    kind: "answer",
    answer: lifecycle.complete(jsonAnswer(body, lifecycle.trace.warnings, text), text, false),
  };
}
