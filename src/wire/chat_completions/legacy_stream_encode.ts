import type { BlockKind, Finish, StreamEvent, Usage } from "../../model/mod.ts";
import { mergeUsage } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { StreamStage } from "../shared/stream_stage.ts";
import { chatErrorObject } from "./errors.ts";
import { encodeFinish } from "./finish.ts";
import { legacyCompletionId } from "./legacy_response_encode.ts";
import { DONE_FRAME } from "./stream_encode.ts";
import { encodeUsage } from "./usage.ts";

/**
 * Neutral events → legacy `text_completion` chunks. Text deltas become `choices[0].text`; reasoning has no
 * field in this shape and is left out. As in chat streams, the finish chunk is written at the end so it
 * can carry usage reported after the finish, and `data: [DONE]` always closes the stream.
 */
export function encodeLegacyCompletionFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  let id = legacyCompletionId("", String(ctx.now));
  let created = ctx.now;
  let started = false;
  let errored = false;
  let finish: Finish | undefined;
  let usage: Usage | undefined;
  const kinds = new Map<number, BlockKind>();

  const chunk = (text: string, finishReason: string | null = null, extra: Record<string, unknown> = {}) => ({
    data: JSON.stringify({
      id,
      object: "text_completion",
      created,
      model: ctx.requestModel,
      choices: [{ text, index: 0, logprobs: null, finish_reason: finishReason }],
      ...extra,
    }),
  });

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      if (errored) return;
      switch (event.type) {
        case "start":
          if (!started) {
            id = legacyCompletionId(event.id, String(ctx.now));
            created = event.created ?? ctx.now;
          }
          started = true;
          return;
        case "blockStart":
          kinds.set(event.index, event.kind);
          return;
        case "textDelta":
          started = true;
          if (kinds.get(event.index) === "reasoning" || event.text === "") return;
          controller.enqueue(chunk(event.text));
          return;
        case "argumentsDelta":
        case "signatureDelta":
        case "blockEnd":
          return;
        case "usage":
          usage = usage ? mergeUsage(usage, event.usage) : event.usage;
          return;
        case "finish":
          finish ??= event.finish;
          return;
        case "error":
          errored = true;
          controller.enqueue({ data: JSON.stringify({ error: chatErrorObject(event.message, event.kind) }) });
          return;
      }
    },
    flush(controller) {
      if (!errored && (started || finish)) {
        const reason = finish ? encodeFinish(finish) : "stop";
        controller.enqueue(chunk("", reason, usage ? { usage: encodeUsage(usage) } : {}));
      }
      controller.enqueue(DONE_FRAME);
    },
  });
}

/** The same stream as SSE text, for callers outside the gateway's pump. */
export function encodeLegacyCompletionStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeLegacyCompletionFrames(ctx), "sse");
}
