import { extraFieldsFor } from "../../model/mod.ts";
import type { NeutralResponse, Part } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { isRecord } from "../shared/mod.ts";
import { type Block, displayedReasoning, textBlock, toolUseBlock } from "./blocks_encode.ts";
import { encodeStopReason } from "./finish.ts";
import { messageIdFor } from "./ids.ts";
import { USAGE_EXTRA_KEY } from "./response_decode.ts";
import { unfoldUsage } from "./usage.ts";

const FORMAT = "messages";

function answerBlock(part: Part): Block | undefined {
  switch (part.kind) {
    case "text":
      return textBlock(part);
    case "toolCall":
      return toolUseBlock(part);
    case "reasoning":
      return displayedReasoning(part);
    // An answer has no image or tool-result blocks in this format.
    case "image":
    case "toolResult":
      return undefined;
  }
}

/** Neutral answer → a messages response body, usage unfolded into the wire's disjoint buckets. */
export function encodeResponse(response: NeutralResponse, ctx: EncodeContext): unknown {
  const extra = extraFieldsFor(response.extra, FORMAT);
  const usageExtra = extra[USAGE_EXTRA_KEY];
  delete extra[USAGE_EXTRA_KEY];
  const content: Block[] = [];
  for (const part of response.parts) {
    const block = answerBlock(part);
    if (block) content.push(block);
  }
  const hasToolCalls = response.parts.some((part) => part.kind === "toolCall");
  const stopReason = encodeStopReason(response.finish, hasToolCalls);
  const stopSequence = stopReason === "stop_sequence" && typeof extra.stop_sequence === "string"
    ? extra.stop_sequence
    : null;
  return {
    ...extra,
    id: messageIdFor(response.id, `${ctx.requestModel}:${ctx.now}`),
    type: "message",
    role: "assistant",
    model: ctx.requestModel,
    content,
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    usage: { ...(isRecord(usageExtra) ? usageExtra : {}), ...unfoldUsage(response.usage) },
  };
}
