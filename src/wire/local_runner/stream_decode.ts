import type { StreamEvent } from "../../model/mod.ts";
import type { Frame } from "../framing/frame.ts";
import { BlockTracker, type Emit, syntheticToolId, tryParseJson } from "../shared/mod.ts";
import { finishFromDoneReason } from "./finish.ts";
import type { UpstreamChunk } from "./schema.ts";
import {
  argumentsText,
  chunkText,
  chunkUsage,
  createdSeconds,
  parseUpstreamChunk,
  responseIdFor,
  upstreamErrorMessage,
} from "./upstream_chunk.ts";
import { StreamStage } from "../shared/stream_stage.ts";

/**
 * Upstream NDJSON lines → neutral events. Ollama has no blocks, so they are synthesised: thinking and
 * content each open a block that closes when the other kind starts, and every tool call arrives whole
 * as one block. Lines that are not JSON objects are skipped.
 */
export function decodeStream(): StreamStage<Frame, StreamEvent> {
  let id = "";
  let started = false;
  let ended = false;
  let toolCount = 0;
  const blocks = new BlockTracker();
  const close = (emit: Emit) => blocks.close(emit);
  const deltaInto = (kind: "text" | "reasoning", text: string, emit: Emit) => {
    emit({ type: "textDelta", index: blocks.open(kind, kind, emit), text });
  };

  const line = (chunk: UpstreamChunk, emit: Emit) => {
    if (!started) {
      started = true;
      id = responseIdFor(chunk);
      const created = createdSeconds(chunk);
      emit({ type: "start", id, model: chunk.model ?? "", ...(created !== undefined ? { created } : {}) });
    }
    const { content, thinking } = chunkText(chunk);
    if (thinking) deltaInto("reasoning", thinking, emit);
    if (content) deltaInto("text", content, emit);
    for (const call of chunk.message?.tool_calls ?? []) {
      const name = call.function.name;
      const callId = call.id || syntheticToolId(id, toolCount++, name);
      blocks.whole("toolCall", emit, { id: callId, name }, (index) => {
        emit({ type: "argumentsDelta", index, json: argumentsText(call) });
      });
    }
    if (chunk.done === true) {
      close(emit);
      ended = true;
      emit({ type: "usage", usage: chunkUsage(chunk) });
      emit({ type: "finish", finish: finishFromDoneReason(chunk.done_reason, toolCount > 0) });
    }
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, controller) {
      if (ended) return;
      const emit: Emit = (event) => controller.enqueue(event);
      const chunk = parseUpstreamChunk(tryParseJson(frame.data));
      if (!chunk) return;
      const error = upstreamErrorMessage(chunk);
      if (error !== undefined) {
        close(emit);
        ended = true;
        emit({ type: "error", status: 502, kind: "upstream", message: error });
        return;
      }
      line(chunk, emit);
    },
    flush(controller) {
      // A cut-off stream still closes its blocks; the missing finish is left for the meter to notice.
      close((event) => controller.enqueue(event));
    },
  });
}
