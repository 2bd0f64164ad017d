import { mergeUsage, ZERO_USAGE } from "../../model/mod.ts";
import type { BlockKind, Finish, StreamEvent, Usage } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { createdAt, finalCounts, wireToolCall } from "./answer_shape.ts";
import { doneReasonFor } from "./finish.ts";
import { StreamStage } from "../shared/stream_stage.ts";

interface ToolBlock {
  readonly name: string;
  args: string;
}

/**
 * Neutral events → NDJSON lines for a chat or generate client. Text and thinking are sent as they
 * arrive; a tool call is sent whole when its block ends (Ollama carries arguments as an object). The
 * final `done: true` line is written when the stream ends, so usage reported after the finish still
 * lands in it, and it is written even when the upstream never finished.
 */
export function encodeFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  const generate = ctx.endpoint === "generate";
  const head = { model: ctx.requestModel, created_at: createdAt(ctx.now) };
  const kinds = new Map<number, BlockKind>();
  const tools = new Map<number, ToolBlock>();
  let usage: Usage | undefined;
  let finish: Finish | undefined;
  let failed = false;

  const chunk = (content: string, more: Record<string, unknown> = {}): Record<string, unknown> =>
    generate
      ? { ...head, response: content, ...more, done: false }
      : { ...head, message: { role: "assistant", content, ...more }, done: false };

  const line = (value: unknown): Frame => ({ data: JSON.stringify(value) });

  const onEvent = (event: StreamEvent, out: (frame: Frame) => void) => {
    switch (event.type) {
      case "start":
      case "signatureDelta":
        return;
      case "blockStart":
        kinds.set(event.index, event.kind);
        if (event.kind === "toolCall") tools.set(event.index, { name: event.name ?? "", args: "" });
        return;
      case "textDelta": {
        if (event.text === "") return;
        const kind = kinds.get(event.index) ?? "text";
        if (kind === "reasoning") out(line(chunk("", { thinking: event.text })));
        else if (kind === "text") out(line(chunk(event.text)));
        return;
      }
      case "argumentsDelta": {
        const tool = tools.get(event.index);
        if (tool) tool.args += event.json;
        return;
      }
      case "blockEnd": {
        const tool = tools.get(event.index);
        tools.delete(event.index);
        // Generate has no tool calls on the wire.
        if (tool && !generate) {
          out(line(chunk("", { tool_calls: [wireToolCall(tool.name, tool.args)] })));
        }
        return;
      }
      case "usage":
        usage = mergeUsage(usage ?? ZERO_USAGE, event.usage);
        return;
      case "finish":
        finish = event.finish;
        return;
      case "error":
        failed = true;
        out(line({ error: event.message }));
        return;
    }
  };

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      if (failed) return;
      onEvent(event, (frame) => controller.enqueue(frame));
    },
    flush(controller) {
      if (failed) return;
      // A tool call whose block never closed (cut-off upstream) is still worth delivering.
      for (const index of [...tools.keys()]) {
        onEvent({ type: "blockEnd", index }, (frame) => controller.enqueue(frame));
      }
      const body = generate
        ? { ...head, response: "" }
        : { ...head, message: { role: "assistant", content: "" } };
      const done: Record<string, unknown> = { ...body, done: true, done_reason: doneReasonFor(finish) };
      if (generate) done.context = [];
      controller.enqueue(line({ ...done, ...finalCounts(usage) }));
    },
  });
}

/** The same stream as NDJSON text (what a client reads), for callers outside the gateway's pump. */
export function encodeStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeFrames(ctx), "ndjson");
}
