/**
 * Every attribute, event and span name the gateway's spans use, in one place. Names from the
 * OpenTelemetry GenAI semantic conventions (status: development; the "latest experimental" set, which
 * includes `gen_ai.provider.name` and the dotted cache token names) are used where they name the thing;
 * the gateway's own facts live under `gateway.`.
 */

/** OpenTelemetry semantic convention attribute names. */
export const GenAi = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  requestStream: "gen_ai.request.stream",
  requestMaxTokens: "gen_ai.request.max_tokens",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  responseTimeToFirstChunk: "gen_ai.response.time_to_first_chunk",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  usageReasoningOutputTokens: "gen_ai.usage.reasoning.output_tokens",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  serverAddress: "server.address",
  serverPort: "server.port",
  errorType: "error.type",
  httpResponseStatusCode: "http.response.status_code",
} as const;

/** The gateway's own attributes (no convention names them). */
export const GatewayAttr = {
  surface: "gateway.surface",
  account: "gateway.account",
  combo: "gateway.combo",
  attemptIndex: "gateway.attempt.index",
  fallbackReason: "gateway.fallback.reason",
  cooldownSet: "gateway.cooldown.set",
  saversApplied: "gateway.savers.applied",
  warnings: "gateway.warnings",
  costUsd: "gateway.cost.usd",
  requestId: "gateway.request.id",
  clientKey: "gateway.client.key",
  contentTruncated: "gateway.content.truncated",
} as const;

/** Event names. */
export const EventName = {
  /** GenAI conventions: the opt-in event that carries prompts and answers. */
  inferenceDetails: "gen_ai.client.inference.operation.details",
  /** The first content the client received (time to first token). */
  firstToken: "gateway.first_token",
} as const;

/** Resource attribute names (OpenTelemetry resource conventions, plus the gateway's worker). */
export const ResourceAttr = {
  serviceName: "service.name",
  serviceVersion: "service.version",
  serviceInstanceId: "service.instance.id",
  worker: "gateway.worker",
} as const;

/** The instrumentation scope the gateway's spans are reported under. */
export const SCOPE_NAME = "gateway";
