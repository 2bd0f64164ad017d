import type { StreamEvent } from "../../model/mod.ts";
import type { Frame } from "../framing/mod.ts";
import { BlockTracker, type Emit, isRecord, tryParseJson } from "../shared/mod.ts";
import { upstreamErrorMessage } from "./errors.ts";
import { decodeFinish } from "./finish.ts";
import { type GeminiPart, type GeminiResponse, responseSchema } from "./schema.ts";
import { responseToolIds } from "./tool_ids.ts";
import { decodeUsage } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

/**
 * Gemini SSE frames → neutral events. Each frame is a whole GenerateContentResponse; Gemini has no
 * blocks, so they are synthesised: consecutive text parts share one text block, consecutive thought
 * parts one reasoning block, and each functionCall is a complete tool-call block of its own.
 */
export function decodeStream(): StreamStage<Frame, StreamEvent> {
  let started = false;
  let finished = false;
  let failed = false;
  let sawToolCall = false;
  const blocks = new BlockTracker();
  const close = (emit: Emit) => blocks.close(emit);
  let ids = responseToolIds("");

  const onPart = (part: GeminiPart, emit: Emit) => {
    if (part.functionCall) {
      sawToolCall = true;
      const call = part.functionCall;
      const labels = { id: ids.callId(call.name, call.id), name: call.name, family: "google" } as const;
      blocks.whole("toolCall", emit, labels, (index) => {
        if (part.thoughtSignature) emit({ type: "signatureDelta", index, signature: part.thoughtSignature });
        emit({ type: "argumentsDelta", index, json: JSON.stringify(call.args ?? {}) });
      });
      return;
    }
    if (part.text === undefined) return;
    // An empty text part may still carry a signature (Gemini 3 sends one at the end of a turn).
    if (part.text === "" && !part.thoughtSignature) return;
    const index = part.thought === true
      ? blocks.open("reasoning", "reasoning", emit, { family: "google" })
      : blocks.open("text", "text", emit);
    if (part.text !== "") emit({ type: "textDelta", index, text: part.text });
    if (part.thoughtSignature) emit({ type: "signatureDelta", index, signature: part.thoughtSignature });
  };

  const onChunk = (chunk: GeminiResponse, emit: Emit) => {
    if (!started) {
      started = true;
      ids = responseToolIds(chunk.responseId ?? "");
      emit({ type: "start", id: chunk.responseId ?? "", model: chunk.modelVersion ?? "" });
    }
    const candidate = chunk.candidates?.[0];
    // Usage first: Gemini reports the prompt's tokens from the first chunk on, and clients that name them
    // at the start of their stream (messages' message_start) then get the real count.
    if (chunk.usageMetadata) emit({ type: "usage", usage: decodeUsage(chunk.usageMetadata) });
    if (!finished) { for (const part of candidate?.content?.parts ?? []) onPart(part, emit); }
    if (finished) return;
    if (candidate?.finishReason !== undefined) {
      close(emit);
      finished = true;
      emit({ type: "finish", finish: decodeFinish(candidate.finishReason, sawToolCall) });
    } else if (!candidate && chunk.promptFeedback?.blockReason !== undefined) {
      finished = true;
      emit({ type: "finish", finish: { unified: "content_filter", raw: chunk.promptFeedback.blockReason } });
    }
  };

  const fail = (message: string, status: number, emit: Emit) => {
    close(emit);
    failed = true;
    emit({ type: "error", status, message, kind: "upstream" });
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, controller) {
      if (failed) return;
      const emit: Emit = (event) => controller.enqueue(event);
      const data = frame.data.trim();
      if (data === "" || data === "[DONE]") return;
      const json = tryParseJson(data);
      if (isRecord(json) && json.error !== undefined) {
        const { code, text } = upstreamErrorMessage(json.error);
        return fail(text, code !== undefined && code >= 400 && code <= 599 ? code : 502, emit);
      }
      const parsed = responseSchema.safeParse(json);
      if (!parsed.success) {
        return fail(
          `Gemini upstream sent a stream chunk that is not a generateContent response: ${data.slice(0, 200)}`,
          502,
          emit,
        );
      }
      onChunk(parsed.data, emit);
    },
    flush(controller) {
      if (failed || !started) return;
      const emit: Emit = (event) => controller.enqueue(event);
      close(emit);
      // Streams that end without a finishReason (seen after tool calls) are finished from what was seen.
      if (!finished) emit({ type: "finish", finish: decodeFinish(undefined, sawToolCall) });
    },
  });
}
