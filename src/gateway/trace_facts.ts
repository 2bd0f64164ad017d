/**
 * The gateway's facts about a request and its attempts in the shape the span sink takes (telemetry's
 * RequestStart/AttemptStart/AttemptEnd). Kept apart from the lifecycle so the lifecycle only calls the
 * sink at its existing events. Pure (one bounded memo of parsed base URLs).
 */
import type { NeutralResponse, WireFormat } from "../model/mod.ts";
import { isApiType } from "../config/api_types.ts";
import { presetFor } from "../executors/presets.ts";
import type { Attempt } from "../routing/mod.ts";
import type { AttemptEnd, AttemptStart } from "../telemetry/mod.ts";
import type { StreamSummary } from "./stream_meter.ts";

/** The GenAI operation a client surface asks for. */
export function operationOf(
  surface: WireFormat,
  endpoint: string | undefined,
  kind?: "images" | "audio" | "embeddings" | "rerank",
): string {
  // Embeddings and rerank keep their own operation whatever surface carried them (GenAI has `embeddings`;
  // rerank has no standard name yet).
  if (kind === "embeddings" || kind === "rerank") return kind;
  if (surface === "generate_content") return "generate_content";
  // The local runner's `generate` endpoint is a plain completion; every other surface is a chat.
  if (surface === "local_runner" && endpoint === "generate") return "text_completion";
  return "chat";
}

/** Whether the client asked for a stream, read from the raw body (the span starts before decoding). */
export function asksForStream(body: unknown, pathStream: boolean | undefined): boolean {
  if (pathStream === true) return true;
  const record = body as Record<string, unknown> | null;
  return typeof record === "object" && record !== null && record.stream === true;
}

/** The provider as the GenAI conventions name it: by the wire format the account speaks. */
export function providerName(apiType: string): string {
  if (!isApiType(apiType)) return apiType;
  switch (presetFor(apiType).format) {
    case "chat_completions":
    case "responses":
      return "openai";
    case "messages":
      return "anthropic";
    case "generate_content":
      return "gcp.gemini";
    case "local_runner":
      return "ollama";
    case "cloud_assistant":
      return "aws.bedrock";
  }
}

/** An attempt as it starts; `baseUrl` is the account's (absent when it is gone). */
export function attemptStart(
  attempt: Attempt,
  index: number,
  baseUrl: string | undefined,
  fallbackReason: string | undefined,
): AttemptStart {
  const server = baseUrl === undefined ? undefined : serverOf(baseUrl);
  return {
    index,
    provider: providerName(attempt.account.apiType),
    account: attempt.account.id,
    model: attempt.upstreamModel,
    serverAddress: server?.address,
    serverPort: server?.port,
    fallbackReason,
  };
}

/** Host and port of each base URL seen, so a sampled attempt parses no URL (a memo, bounded). */
const servers = new Map<string, { address: string; port: number } | undefined>();
const MAX_SERVERS = 1000;

function serverOf(baseUrl: string): { address: string; port: number } | undefined {
  if (servers.has(baseUrl)) return servers.get(baseUrl);
  let server: { address: string; port: number } | undefined;
  if (URL.canParse(baseUrl)) {
    const url = new URL(baseUrl);
    const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    server = { address: url.hostname, port };
  }
  if (servers.size >= MAX_SERVERS) servers.clear();
  servers.set(baseUrl, server);
  return server;
}

/** A low-cardinality class for a failed status (0: no answer at all). */
export function errorType(status: number): string {
  if (status === 0) return "network";
  if (status === 429) return "rate_limited";
  if (status === 499) return "client_closed";
  return String(status);
}

/** The end of a failed attempt. */
export function failedEnd(status: number, message: string, cooldownSet: boolean): AttemptEnd {
  return {
    httpStatus: status === 0 ? undefined : status,
    error: { type: errorType(status), message },
    cooldownSet,
  };
}

/** The end of an attempt that answered whole. */
export function answeredEnd(response: NeutralResponse): AttemptEnd {
  return {
    httpStatus: 200,
    responseModel: response.model,
    responseId: response.id,
    finishReasons: response.finish.raw === null ? undefined : [response.finish.raw],
    usage: response.usage,
  };
}

/** The end of a committed stream, with its usage when the upstream reported it. */
export function streamedEnd(summary: StreamSummary, status: number, error: string): AttemptEnd {
  return {
    httpStatus: status,
    error: status === 200
      ? undefined
      : { type: summary.end === "cancelled" ? "client_closed" : "stream_failed", message: error },
    finishReasons: summary.finish?.raw == null ? undefined : [summary.finish.raw],
    usage: summary.usageReported ? summary.usage : undefined,
  };
}
