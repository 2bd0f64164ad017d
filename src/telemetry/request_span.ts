/**
 * What the request lifecycle tells telemetry, and how those facts become span attributes. The
 * lifecycle speaks in gateway terms (surface, account, usage, warnings); this file alone knows which
 * GenAI convention name each fact takes. Pure.
 */
import type { GatewayWarning } from "../model/warning.ts";
import type { Usage } from "../model/usage.ts";
import type { TraceContext } from "./trace_context.ts";
import type { SpanBuilder } from "./span_builder.ts";
import { type AttributeValue, double, int, str, strings } from "./span.ts";
import { GatewayAttr, GenAi } from "./semconv.ts";

/** A client request as it arrives (after authentication, before routing). */
export interface RequestStart {
  /** The id the request log row carries, so a trace and a row can be joined. */
  readonly requestId: string;
  /** The client surface (wire format), e.g. `chat_completions`. */
  readonly surface: string;
  /** The GenAI operation: `chat`, `embeddings`, `rerank`, `generate_content`, `text_completion`. */
  readonly operation: string;
  /** The model string as the client sent it (a combo name included). */
  readonly requestModel: string;
  readonly stream: boolean;
  /** The caller's trace context from `traceparent`/`tracestate` (extractTraceContext), or null. */
  readonly incoming: TraceContext | null;
  /** The combo the model named, when it named one. */
  readonly combo?: string;
  /** The client key's label (never the key itself). */
  readonly clientKey?: string;
}

/** One upstream attempt as it starts. */
export interface AttemptStart {
  /** 0 for the first attempt, 1 for the first fallback, … */
  readonly index: number;
  /** The provider as the GenAI conventions name it where they do (`openai`, `anthropic`, …). */
  readonly provider: string;
  /** The gateway account (provider entry) that serves the attempt. */
  readonly account: string;
  /** The model asked of the upstream. */
  readonly model: string;
  readonly serverAddress?: string;
  readonly serverPort?: number;
  /** Why the previous attempt was left for this one (its error kind), absent for the first. */
  readonly fallbackReason?: string;
}

/** How a call ended; every field is optional because failures end early. */
export interface Outcome {
  /** Set when the call failed: a low-cardinality class (`rate_limited`, `timeout`, `500`) and a message. */
  readonly error?: { readonly type: string; readonly message: string };
  readonly httpStatus?: number;
  readonly responseModel?: string;
  readonly responseId?: string;
  /** Raw finish reasons as the upstream gave them (the conventions' `finish_reasons`). */
  readonly finishReasons?: readonly string[];
  readonly usage?: Usage;
}

/** The end of an attempt. */
export interface AttemptEnd extends Outcome {
  /** True when this failure put the account in cooldown. */
  readonly cooldownSet?: boolean;
}

/** The end of the client request. */
export interface RequestEnd extends Outcome {
  /** The provider and account of the attempt that answered. */
  readonly provider?: string;
  readonly account?: string;
  readonly costUsd?: number;
  readonly warnings?: readonly GatewayWarning[];
  /** The token savers that changed the request (`rtk`, `caveman`, …). */
  readonly saversApplied?: readonly string[];
}

/** The GenAI span name: `{operation} {model}`. */
export function genAiSpanName(operation: string, model: string): string {
  return model === "" ? operation : `${operation} ${model}`;
}

function opt<T>(value: T | undefined, f: (v: T) => AttributeValue): AttributeValue | undefined {
  return value === undefined ? undefined : f(value);
}

/** Sets the attributes a request span has from the start. */
export function setRequestStart(span: SpanBuilder, r: RequestStart): void {
  span.set(GenAi.operationName, str(r.operation))
    .set(GenAi.requestModel, str(r.requestModel))
    .set(GenAi.requestStream, { kind: "bool", value: r.stream })
    .set(GatewayAttr.surface, str(r.surface))
    .set(GatewayAttr.requestId, str(r.requestId))
    .set(GatewayAttr.combo, opt(r.combo, str))
    .set(GatewayAttr.clientKey, opt(r.clientKey, str));
}

/** Sets the attributes an attempt span has from the start. */
export function setAttemptStart(span: SpanBuilder, operation: string, a: AttemptStart): void {
  span.set(GenAi.operationName, str(operation))
    .set(GenAi.providerName, str(a.provider))
    .set(GenAi.requestModel, str(a.model))
    .set(GenAi.serverAddress, opt(a.serverAddress, str))
    .set(GenAi.serverPort, opt(a.serverPort, int))
    .set(GatewayAttr.account, str(a.account))
    .set(GatewayAttr.attemptIndex, int(a.index))
    .set(GatewayAttr.fallbackReason, opt(a.fallbackReason, str));
}

/** Sets what an outcome says (response model, usage, finish, error) on either kind of span. */
export function setOutcome(span: SpanBuilder, o: Outcome): void {
  span.set(GenAi.responseModel, opt(o.responseModel, str))
    .set(GenAi.responseId, opt(o.responseId, str))
    .set(GenAi.httpResponseStatusCode, opt(o.httpStatus, int))
    .set(GenAi.errorType, o.error === undefined ? undefined : str(o.error.type));
  if (o.finishReasons !== undefined && o.finishReasons.length > 0) {
    span.set(GenAi.responseFinishReasons, strings(o.finishReasons));
  }
  if (o.usage !== undefined) {
    const u = o.usage;
    span.set(GenAi.usageInputTokens, int(u.inputTotal))
      .set(GenAi.usageOutputTokens, int(u.output))
      .set(GenAi.usageCacheReadInputTokens, int(u.cacheRead))
      .set(GenAi.usageCacheCreationInputTokens, int(u.cacheWrite))
      .set(GenAi.usageReasoningOutputTokens, u.reasoning > 0 ? int(u.reasoning) : undefined);
  }
  // Recording Errors convention: status ERROR with the message; success leaves the status unset.
  if (o.error !== undefined) span.status({ code: 2, message: o.error.message });
}

/** Sets the request-level facts known at the end. */
export function setRequestEnd(span: SpanBuilder, r: RequestEnd): void {
  setOutcome(span, r);
  span.set(GenAi.providerName, opt(r.provider, str))
    .set(GatewayAttr.account, opt(r.account, str))
    .set(GatewayAttr.costUsd, r.costUsd === undefined ? undefined : double(r.costUsd));
  if (r.warnings !== undefined && r.warnings.length > 0) {
    span.set(GatewayAttr.warnings, strings(r.warnings.map((w) => w.code)));
  }
  if (r.saversApplied !== undefined && r.saversApplied.length > 0) {
    span.set(GatewayAttr.saversApplied, strings(r.saversApplied));
  }
}

/** Sets the attempt facts known at its end. */
export function setAttemptEnd(span: SpanBuilder, a: AttemptEnd): void {
  setOutcome(span, a);
  if (a.cooldownSet === true) span.set(GatewayAttr.cooldownSet, { kind: "bool", value: true });
}
