import { GatewayError, splitExtra } from "../../model/mod.ts";
import type { NeutralResponse, Part } from "../../model/mod.ts";
import { syntheticToolId } from "../shared/mod.ts";
import { finishFromDoneReason } from "./finish.ts";
import {
  argumentsText,
  chunkText,
  chunkUsage,
  createdSeconds,
  parseUpstreamChunk,
  responseIdFor,
  upstreamError,
  upstreamErrorMessage,
} from "./upstream_chunk.ts";

/** Fields mapped to the neutral response; the rest (durations, logprobs) ride along as extra. */
const KNOWN = new Set([
  "model",
  "created_at",
  "message",
  "response",
  "thinking",
  "done",
  "done_reason",
  "prompt_eval_count",
  "eval_count",
  "context",
  "error",
]);

/** Decodes an upstream /api/chat answer (a generate answer is tolerated) to the neutral response. */
export function decodeResponse(body: unknown): NeutralResponse {
  const chunk = parseUpstreamChunk(body);
  if (!chunk) {
    throw new GatewayError(502, "upstream", "Local runner upstream sent a body that is not a chat answer", {
      upstreamBody: JSON.stringify(body),
    });
  }
  const errorMessage = upstreamErrorMessage(chunk);
  if (errorMessage !== undefined) throw upstreamError(errorMessage, body);
  if (!chunk.message && chunk.response === undefined) {
    throw new GatewayError(502, "upstream", "Local runner upstream answer has neither message nor response", {
      upstreamBody: JSON.stringify(body),
    });
  }
  const id = responseIdFor(chunk);
  const { content, thinking } = chunkText(chunk);
  const parts: Part[] = [];
  if (thinking) parts.push({ kind: "reasoning", text: thinking });
  if (content) parts.push({ kind: "text", text: content });
  const calls = chunk.message?.tool_calls ?? [];
  calls.forEach((call, index) => {
    const name = call.function.name;
    parts.push({
      kind: "toolCall",
      id: call.id || syntheticToolId(id, index, name),
      name,
      arguments: argumentsText(call),
    });
  });
  const created = createdSeconds(chunk);
  const extra = splitExtra(chunk, KNOWN, "local_runner");
  return {
    id,
    model: chunk.model ?? "",
    ...(created !== undefined ? { created } : {}),
    parts,
    finish: finishFromDoneReason(chunk.done_reason, calls.length > 0),
    usage: chunkUsage(chunk),
    ...(extra ? { extra } : {}),
  };
}
