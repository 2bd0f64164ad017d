import type { NeutralRequest, ReasoningPart } from "../model/mod.ts";
import type { AdjustTarget } from "./target.ts";

/**
 * The reasoning text inserted where a turn has none. A single space, not "": the chat-completions
 * encoder only writes `reasoning_content` when the text is non-empty.
 */
export const REASONING_PLACEHOLDER = " ";

function applies(target: AdjustTarget): boolean {
  if (target.upstreamFormat !== "chat_completions") return false;
  return target.capabilities.echoReasoning === true || /(?:^|\/)(?:kimi|moonshot)/i.test(target.model);
}

/**
 * For chat-completions upstreams that demand it (DeepSeek reasoner and V3.1+, Kimi/Moonshot, or any
 * model configured with `echoReasoning`): gives every assistant turn with tool calls a reasoning part,
 * so the encoder sends `reasoning_content` back and the upstream does not reject the history.
 */
export function injectReasoningContent(request: NeutralRequest, target: AdjustTarget): NeutralRequest {
  if (!applies(target)) return request;
  let changed = false;
  const messages = request.messages.map((message) => {
    if (message.role !== "assistant" || !message.parts.some((p) => p.kind === "toolCall")) return message;
    if (message.parts.some((p) => p.kind === "reasoning" && p.text !== "")) return message;
    changed = true;
    const placeholder: ReasoningPart = { kind: "reasoning", text: REASONING_PLACEHOLDER };
    return { ...message, parts: [placeholder, ...message.parts] };
  });
  return changed ? { ...request, messages } : request;
}
