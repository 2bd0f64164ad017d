import type { Finish, StreamEvent } from "../../model/mod.ts";
import type { Frame } from "../framing/mod.ts";
import { BlockTracker, type Emit, isRecord, syntheticToolId, tryParseJson } from "../shared/mod.ts";
import { deltaOf, finishReasonOf, primaryChoice, reasoningOf } from "./chunk.ts";
import { decodeFinish } from "./finish.ts";
import { upstreamErrorMessage } from "./response_decode.ts";
import { decodeUsage } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

type Json = Record<string, unknown>;

/** A tool call seen in the stream, keyed by its upstream position. */
interface ToolBlock {
  readonly index: number;
  readonly id: string;
}

/**
 * Upstream chat-completion chunks → neutral events. Text and reasoning blocks close when another
 * block starts, so every consumer sees blocks in sequence. The finish is held until the stream ends,
 * because usage usually arrives in a chunk after the finish chunk.
 */
export function decodeChatStream(): StreamStage<Frame, StreamEvent> {
  let responseId = "";
  let started = false;
  let ended = false;
  let errored = false;
  let sawContent = false;
  let sawToolCall = false;
  let finish: Finish | undefined;
  const blocks = new BlockTracker();
  let lastToolKey: string | undefined;
  const tools = new Map<string, ToolBlock>();

  const toolKey = (call: Json, position: number): string => {
    const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
    if (typeof call.index === "number") {
      const key = `i${call.index}`;
      const known = tools.get(key);
      // Some upstreams number every call 0; a new id at a known index is a new call.
      if (known && id !== undefined && id !== known.id) return `id:${id}`;
      return key;
    }
    if (id !== undefined) return `id:${id}`;
    return lastToolKey ?? `p${position}`;
  };

  const toolCalls = (calls: unknown[], emit: Emit) => {
    calls.forEach((call, position) => {
      if (!isRecord(call)) return;
      const fn = isRecord(call.function) ? call.function : {};
      const args = typeof fn.arguments === "string"
        ? fn.arguments
        : isRecord(fn.arguments)
        ? JSON.stringify(fn.arguments)
        : "";
      const key = toolKey(call, position);
      lastToolKey = key;
      let block = tools.get(key);
      if (!block) {
        const name = typeof fn.name === "string" ? fn.name : "";
        const id = typeof call.id === "string" && call.id !== ""
          ? call.id
          : syntheticToolId(responseId, tools.size, name);
        block = { index: blocks.open(key, "toolCall", emit, { id, name }), id };
        tools.set(key, block);
        sawContent = true;
        sawToolCall = true;
      }
      // Arguments for an earlier, already closed call (interleaved upstreams) still go to its index:
      // losing them would break the call, and collectors group deltas by index.
      if (args !== "") emit({ type: "argumentsDelta", index: block.index, json: args });
    });
  };

  const chunk = (data: Json, emit: Emit) => {
    if (!started) {
      started = true;
      responseId = typeof data.id === "string" ? data.id : "";
      const model = typeof data.model === "string" ? data.model : "";
      emit(
        typeof data.created === "number"
          ? { type: "start", id: responseId, model, created: data.created }
          : { type: "start", id: responseId, model },
      );
    }
    const choice = primaryChoice(data);
    if (choice) {
      const delta = deltaOf(choice);
      const reasoning = reasoningOf(delta);
      if (reasoning !== "") {
        sawContent = true;
        emit({ type: "textDelta", index: blocks.open("reasoning", "reasoning", emit), text: reasoning });
      }
      if (typeof delta.content === "string" && delta.content !== "") {
        sawContent = true;
        emit({ type: "textDelta", index: blocks.open("text", "text", emit), text: delta.content });
      }
      if (Array.isArray(delta.tool_calls)) toolCalls(delta.tool_calls, emit);
      const reason = finishReasonOf(choice);
      if (reason !== undefined) finish = decodeFinish(reason);
    }
    const usage = decodeUsage(data.usage);
    if (usage) emit({ type: "usage", usage });
  };

  const end = (emit: Emit) => {
    if (ended) return;
    ended = true;
    if (errored) return;
    blocks.close(emit);
    if (finish) emit({ type: "finish", finish });
    else if (sawContent) {
      emit({ type: "finish", finish: { unified: sawToolCall ? "tool_calls" : "stop", raw: null } });
    }
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, controller) {
      if (ended || errored) return;
      const emit: Emit = (event) => controller.enqueue(event);
      const text = frame.data.trim();
      if (text === "[DONE]") return end(emit);
      const data = tryParseJson(text);
      // Non-JSON lines (HTML error pages, keep-alive notes) carry nothing a client could use.
      if (!isRecord(data)) return;
      if (data.error !== undefined && data.error !== null) {
        errored = true;
        const error = isRecord(data.error) ? data.error : {};
        const code = typeof error.code === "number" ? error.code : Number(error.code);
        const status = Number.isInteger(code) && code >= 400 && code < 600 ? code : 502;
        emit({ type: "error", status, message: upstreamErrorMessage(data.error), kind: "upstream" });
        return;
      }
      chunk(data, emit);
    },
    flush(controller) {
      end((event) => controller.enqueue(event));
    },
  });
}
