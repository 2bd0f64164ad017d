import { GatewayError, type Usage } from "../../model/mod.ts";
import { stableHash } from "../shared/mod.ts";
import { upstreamChunkSchema } from "./schema.ts";
import type { UpstreamChunk, UpstreamToolCall } from "./schema.ts";

/** Parses one upstream answer or stream line; undefined when it is not a local-runner object. */
export function parseUpstreamChunk(value: unknown): UpstreamChunk | undefined {
  const parsed = upstreamChunkSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The message of an upstream `{"error": …}` body, or undefined when there is none. */
export function upstreamErrorMessage(chunk: UpstreamChunk): string | undefined {
  const error = chunk.error;
  if (error === undefined || error === null) return undefined;
  if (typeof error === "string") return error;
  return JSON.stringify(error);
}

/** A GatewayError(502, upstream) for an upstream error object. */
export function upstreamError(message: string, body: unknown): GatewayError {
  return new GatewayError(502, "upstream", `Local runner upstream error: ${message}`, {
    upstreamBody: JSON.stringify(body),
  });
}

/** Ollama answers carry no id; one is derived from model and timestamp so it is stable per answer. */
export function responseIdFor(chunk: UpstreamChunk): string {
  return `lr_${stableHash(`${chunk.model ?? ""}|${chunk.created_at ?? ""}`)}`;
}

/** Unix seconds of an upstream `created_at`, when it parses. */
export function createdSeconds(chunk: UpstreamChunk): number | undefined {
  if (!chunk.created_at) return undefined;
  const ms = Date.parse(chunk.created_at);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** The token counts of a final chunk (Ollama reports no cache or reasoning buckets). */
export function chunkUsage(chunk: UpstreamChunk): Usage {
  return {
    inputTotal: chunk.prompt_eval_count ?? 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: chunk.eval_count ?? 0,
    reasoning: 0,
  };
}

/** Tool-call arguments as raw JSON text (Ollama sends an object). */
export function argumentsText(call: UpstreamToolCall): string {
  const args = call.function.arguments;
  if (args === undefined || args === null) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Text and thinking of a chunk, read from `message` (chat) or the top level (generate). */
export function chunkText(chunk: UpstreamChunk): { content: string; thinking: string } {
  return {
    content: chunk.message?.content ?? chunk.response ?? "",
    thinking: chunk.message?.thinking ?? chunk.thinking ?? "",
  };
}
