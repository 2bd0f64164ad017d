/**
 * What the request lifecycle tells telemetry, and how those facts become span attributes. The
 * lifecycle speaks in gateway terms (surface, account, usage, warnings); this file alone knows which
 * GenAI convention name each fact takes, and writes them into whatever sink encodes the span. Pure.
 */
import type { GatewayWarning } from "../model/warning.ts";
import type { Usage } from "../model/usage.ts";
import type { TraceContext } from "./trace_context.ts";
import { type AttributeSink, type SpanStatus, StatusCode } from "./span.ts";
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
}

/** The end of an attempt. */
export interface AttemptEnd extends Outcome {
  /**
   * The tokens the upstream reported for this call. Only attempt spans carry usage: backends that total
   * a trace (Langfuse, Opik) sum `gen_ai.usage.*` over all its spans, so a request span repeating its
   * attempts' usage would count every token twice.
   */
  readonly usage?: Usage;
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

/** Writes the attributes a request span has from the start. */
export function writeRequestStart(out: AttributeSink, r: RequestStart): void {
  out.string(GenAi.operationName, r.operation);
  out.string(GenAi.requestModel, r.requestModel);
  out.bool(GenAi.requestStream, r.stream);
  out.string(GatewayAttr.surface, r.surface);
  out.string(GatewayAttr.requestId, r.requestId);
  if (r.combo !== undefined) out.string(GatewayAttr.combo, r.combo);
  if (r.clientKey !== undefined) out.string(GatewayAttr.clientKey, r.clientKey);
}

/** Writes the attributes an attempt span has from the start. */
export function writeAttemptStart(out: AttributeSink, operation: string, a: AttemptStart): void {
  out.string(GenAi.operationName, operation);
  out.string(GenAi.providerName, a.provider);
  out.string(GenAi.requestModel, a.model);
  if (a.serverAddress !== undefined) out.string(GenAi.serverAddress, a.serverAddress);
  if (a.serverPort !== undefined) out.int(GenAi.serverPort, a.serverPort);
  out.string(GatewayAttr.account, a.account);
  out.int(GatewayAttr.attemptIndex, a.index);
  if (a.fallbackReason !== undefined) out.string(GatewayAttr.fallbackReason, a.fallbackReason);
}

/** Writes what an outcome says (response model, finish, error) on either kind of span. */
function writeOutcome(out: AttributeSink, o: Outcome): void {
  if (o.responseModel !== undefined) out.string(GenAi.responseModel, o.responseModel);
  if (o.responseId !== undefined) out.string(GenAi.responseId, o.responseId);
  if (o.httpStatus !== undefined) out.int(GenAi.httpResponseStatusCode, o.httpStatus);
  if (o.error !== undefined) out.string(GenAi.errorType, o.error.type);
  if (o.finishReasons !== undefined && o.finishReasons.length > 0) {
    out.strings(GenAi.responseFinishReasons, o.finishReasons);
  }
}

/** Writes the tokens an attempt reported. */
function writeUsage(out: AttributeSink, u: Usage): void {
  out.int(GenAi.usageInputTokens, u.inputTotal);
  out.int(GenAi.usageOutputTokens, u.output);
  out.int(GenAi.usageCacheReadInputTokens, u.cacheRead);
  out.int(GenAi.usageCacheCreationInputTokens, u.cacheWrite);
  if (u.reasoning > 0) out.int(GenAi.usageReasoningOutputTokens, u.reasoning);
}

/** The span status an outcome gives (Recording Errors convention: an error with its message; success unset). */
export function outcomeStatus(o: Outcome): SpanStatus {
  return o.error === undefined ? UNSET : { code: StatusCode.error, message: o.error.message };
}

const UNSET: SpanStatus = { code: StatusCode.unset, message: "" };

/** Writes the request-level facts known at the end. */
export function writeRequestEnd(out: AttributeSink, r: RequestEnd): void {
  writeOutcome(out, r);
  if (r.provider !== undefined) out.string(GenAi.providerName, r.provider);
  if (r.account !== undefined) out.string(GatewayAttr.account, r.account);
  if (r.costUsd !== undefined) out.double(GatewayAttr.costUsd, r.costUsd);
  if (r.warnings !== undefined && r.warnings.length > 0) {
    out.strings(GatewayAttr.warnings, r.warnings.map((w) => w.code));
  }
  if (r.saversApplied !== undefined && r.saversApplied.length > 0) {
    out.strings(GatewayAttr.saversApplied, r.saversApplied);
  }
}

/** Writes the attempt facts known at its end. */
export function writeAttemptEnd(out: AttributeSink, a: AttemptEnd): void {
  writeOutcome(out, a);
  if (a.usage !== undefined) writeUsage(out, a.usage);
  if (a.cooldownSet === true) out.bool(GatewayAttr.cooldownSet, true);
}
