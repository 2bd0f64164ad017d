import type { NeutralResponse } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { encodeFinish } from "./finish.ts";
import { encodeUsage } from "./usage.ts";

const PREFIX = "cmpl-";

/**
 * A `cmpl-` id for a legacy completion: the upstream's id with its chat prefix swapped, so one request
 * keeps one id across the gateway's log and the client's answer.
 */
export function legacyCompletionId(id: string, fallback: string): string {
  if (id.startsWith(PREFIX) && id.length > PREFIX.length) return id;
  const bare = id.startsWith("chatcmpl-") ? id.slice("chatcmpl-".length) : id;
  return PREFIX + (bare === "" ? fallback : bare);
}

/**
 * Encodes a neutral answer as a legacy `text_completion`. Only the answer's text is a completion:
 * reasoning has no field here and a one-turn prompt offers no tools.
 */
export function encodeLegacyCompletionResponse(
  response: NeutralResponse,
  ctx: EncodeContext,
): Record<string, unknown> {
  let text = "";
  for (const part of response.parts) {
    if (part.kind === "text") text += part.text;
  }
  return {
    id: legacyCompletionId(response.id, String(ctx.now)),
    object: "text_completion",
    created: response.created ?? ctx.now,
    // The client sees the model id it asked for (prefix/model or a combo), never the upstream's name.
    model: ctx.requestModel,
    choices: [{ text, index: 0, logprobs: null, finish_reason: encodeFinish(response.finish) }],
    usage: encodeUsage(response.usage),
  };
}
