import type { NeutralResponse } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { isRecord } from "../shared/mod.ts";
import { mergeExtraFields } from "./extra_fields.ts";
import { encodeFinish } from "./finish.ts";
import { chatCompletionId } from "./ids.ts";
import { encodeUsage } from "./usage.ts";

type Json = Record<string, unknown>;

/** Encodes a neutral response as a client-facing chat completion. */
export function encodeChatResponse(response: NeutralResponse, ctx: EncodeContext): Json {
  let text = "";
  let reasoning = "";
  const calls: Json[] = [];
  for (const part of response.parts) {
    switch (part.kind) {
      case "text":
        text += part.text;
        break;
      case "reasoning":
        reasoning += part.text;
        break;
      case "toolCall":
        calls.push({
          id: part.id,
          type: "function",
          function: { name: part.name, arguments: part.arguments },
        });
        break;
      case "image":
      case "toolResult":
        break;
    }
  }
  const message: Json = { role: "assistant", content: text === "" && calls.length > 0 ? null : text };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== "") message.reasoning_content = reasoning;
  const choice: Json = { index: 0, message, finish_reason: encodeFinish(response.finish), logprobs: null };

  const fields = response.extra?.format === "chat_completions" ? response.extra.fields : undefined;
  const choiceExtra = fields && Array.isArray(fields.choices) && isRecord(fields.choices[0])
    ? fields.choices[0]
    : undefined;
  if (choiceExtra) {
    const { logprobs, ...rest } = choiceExtra;
    if (logprobs !== undefined) choice.logprobs = logprobs;
    mergeExtraFields(choice, rest);
  }
  const body: Json = {
    id: chatCompletionId(response.id, String(ctx.now)),
    object: "chat.completion",
    created: response.created ?? ctx.now,
    // The client sees the model id it asked for (prefix/model or a combo), never the upstream's name.
    model: ctx.requestModel,
    choices: [choice],
    usage: encodeUsage(response.usage),
  };
  // The extra `choices` entry needs no removing first: `choices` is always set above, and a value the
  // encoder set is never overwritten by an extra one.
  return fields ? mergeExtraFields(body, fields) : body;
}
