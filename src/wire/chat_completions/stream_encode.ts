import type { BlockKind, Finish, StreamEvent, Usage } from "../../model/mod.ts";
import { mergeUsage } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { chatErrorObject } from "./errors.ts";
import { encodeFinish } from "./finish.ts";
import { chatCompletionId } from "./ids.ts";
import { encodeUsage } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

type Json = Record<string, unknown>;

/** The terminator every chat-completions client waits for. */
export const DONE_FRAME: Frame = Object.freeze({ data: "[DONE]" });

/**
 * Neutral events → chat-completion chunks as SSE text. The finish chunk is written when the stream
 * ends so that it can carry the usage, which some upstreams report only after their finish. The
 * stream always ends with `data: [DONE]`, after an error too.
 */
export function encodeChatFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  let id = chatCompletionId("", String(ctx.now));
  // The client sees the model id it asked for, whatever name the upstream reports.
  const model = ctx.requestModel;
  let created = ctx.now;
  let started = false;
  let errored = false;
  let sawTool = false;
  let finish: Finish | undefined;
  let usage: Usage | undefined;
  let nextTool = 0;
  const kinds = new Map<number, BlockKind>();
  const toolPositions = new Map<number, number>();

  const chunk = (delta: Json, finishReason: string | null = null, extra: Json = {}): Frame => ({
    data: JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...extra,
    }),
  });

  const toolPosition = (index: number): number => {
    let position = toolPositions.get(index);
    if (position === undefined) {
      position = nextTool++;
      toolPositions.set(index, position);
    }
    return position;
  };

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      if (errored) return;
      const ensureStarted = () => {
        if (started) return;
        started = true;
        controller.enqueue(chunk({ role: "assistant", content: "" }));
      };
      switch (event.type) {
        case "start":
          if (!started) {
            id = chatCompletionId(event.id, String(ctx.now));
            created = event.created ?? ctx.now;
          }
          ensureStarted();
          return;
        case "blockStart":
          kinds.set(event.index, event.kind);
          if (event.kind !== "toolCall") return;
          ensureStarted();
          sawTool = true;
          controller.enqueue(chunk({
            tool_calls: [{
              index: toolPosition(event.index),
              id: event.id ?? "",
              type: "function",
              function: { name: event.name ?? "", arguments: "" },
            }],
          }));
          return;
        case "textDelta":
          ensureStarted();
          controller.enqueue(chunk(
            kinds.get(event.index) === "reasoning"
              ? { reasoning_content: event.text }
              : { content: event.text },
          ));
          return;
        case "argumentsDelta":
          ensureStarted();
          sawTool = true;
          controller.enqueue(chunk({
            tool_calls: [{ index: toolPosition(event.index), function: { arguments: event.json } }],
          }));
          return;
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
        if (!started) controller.enqueue(chunk({ role: "assistant", content: "" }));
        const reason = finish ? encodeFinish(finish) : sawTool ? "tool_calls" : "stop";
        controller.enqueue(chunk({}, reason, usage ? { usage: encodeUsage(usage) } : {}));
      }
      controller.enqueue(DONE_FRAME);
    },
  });
}

/** The same stream as SSE text (what a client reads), for callers outside the gateway's pump. */
export function encodeChatStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeChatFrames(ctx), "sse");
}
