import { extraFieldsFor } from "../../model/mod.ts";
import type { NeutralResponse } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { createdAt, finalCounts, wireToolCall } from "./answer_shape.ts";
import { doneReasonFor } from "./finish.ts";

/** Neutral response → an /api/chat answer, or an /api/generate one when `ctx.endpoint` is "generate". */
export function encodeResponse(response: NeutralResponse, ctx: EncodeContext): Record<string, unknown> {
  let content = "";
  let thinking = "";
  const toolCalls: Record<string, unknown>[] = [];
  for (const part of response.parts) {
    switch (part.kind) {
      case "text":
        content += part.text;
        break;
      case "reasoning":
        thinking += part.text;
        break;
      case "toolCall":
        toolCalls.push(wireToolCall(part.name, part.arguments));
        break;
      case "image":
      case "toolResult":
        break;
    }
  }
  const head: Record<string, unknown> = { model: ctx.requestModel, created_at: createdAt(ctx.now) };
  if (ctx.endpoint === "generate") {
    // Generate has no tool calls; the answer is the text alone.
    head.response = content;
    if (thinking) head.thinking = thinking;
  } else {
    const message: Record<string, unknown> = { role: "assistant", content };
    if (thinking) message.thinking = thinking;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    head.message = message;
  }
  head.done = true;
  head.done_reason = doneReasonFor(response.finish);
  if (ctx.endpoint === "generate") head.context = [];
  // Real runner timings, when the upstream was a runner too, replace the zero placeholders.
  return { ...head, ...finalCounts(response.usage), ...extraFieldsFor(response.extra, "local_runner") };
}
