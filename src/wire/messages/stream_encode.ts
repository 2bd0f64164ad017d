import { mergeUsage, ZERO_USAGE } from "../../model/mod.ts";
import type { Finish, StreamEvent, Usage } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { syntheticToolId, toolIdFor } from "../shared/mod.ts";
import { foreignSignature } from "./blocks_encode.ts";
import { errorBody, errorTypeForKindName } from "./errors.ts";
import { encodeStopReason } from "./finish.ts";
import { messageIdFor } from "./ids.ts";
import { unfoldUsage } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

type BlockStartEvent = Extract<StreamEvent, { type: "blockStart" }>;
type BlockDeltaEvent = Extract<StreamEvent, { type: "textDelta" | "argumentsDelta" | "signatureDelta" }>;

/** A neutral block on its way out: waiting (buffered), open (has `out`), or closed (deleted). */
interface Block {
  readonly start: BlockStartEvent;
  readonly buffered: BlockDeltaEvent[];
  ended: boolean;
  out?: number;
  /** Another family's signature so far (its deltas), sealed into one signature_delta at the block's end. */
  foreignSignature: string;
}

/** Redacted data only Anthropic can read back; another family's opaque data travels sealed in a signature. */
function isRedactedThinking(start: BlockStartEvent): boolean {
  return start.redactedData !== undefined && (start.family === undefined || start.family === "anthropic");
}

/**
 * Neutral events → messages SSE, in the exact order messages clients expect: message_start, then
 * one block at a time (start, deltas, stop), then message_delta and message_stop. Blocks never
 * interleave on this wire, so a block that starts while another is open is buffered and sent whole
 * after it; output indexes count 0, 1, 2… in emission order. message_start waits for the first block
 * so the input usage that upstreams send with their own start is in it; message_delta waits for the
 * end of the stream so usage reported after the finish (OpenAI include_usage) still lands in it.
 */
export function encodeFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  const blocks = new Map<number, Block>();
  const closed = new Set<number>();
  const queue: number[] = [];
  let active: number | undefined;
  let nextOut = 0;
  let id = "";
  let started = false;
  let failed = false;
  let sawToolUse = false;
  let usage: Usage = ZERO_USAGE;
  let finish: Finish | undefined;
  let out: (frame: Frame) => void = () => {};

  const send = (type: string, payload: Record<string, unknown>) =>
    out({ event: type, data: JSON.stringify({ type, ...payload }) });

  const ensureStarted = () => {
    if (started) return;
    started = true;
    send("message_start", {
      message: {
        id: messageIdFor(id, `${ctx.requestModel}:${ctx.now}`),
        type: "message",
        role: "assistant",
        model: ctx.requestModel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: unfoldUsage(
          usage.inputTotal === 0 && ctx.inputTokens !== undefined
            ? { ...usage, inputTotal: ctx.inputTokens }
            : usage,
        ),
      },
    });
  };

  const contentBlock = (block: Block, index: number): Record<string, unknown> => {
    const start = block.start;
    switch (start.kind) {
      case "text":
        return { type: "text", text: "" };
      case "reasoning":
        return isRedactedThinking(start)
          ? { type: "redacted_thinking", data: start.redactedData }
          : { type: "thinking", thinking: "" };
      case "toolCall": {
        sawToolUse = true;
        const name = start.name ?? "";
        const callId = start.id ? toolIdFor(start.id) : syntheticToolId(id, index, name);
        return { type: "tool_use", id: callId, name, input: {} };
      }
    }
  };

  const deltaFor = (block: Block, event: BlockDeltaEvent): Record<string, unknown> | undefined => {
    const { kind, family } = block.start;
    const thinking = kind === "reasoning" && !isRedactedThinking(block.start);
    switch (event.type) {
      case "textDelta":
        if (event.text === "") return undefined;
        if (kind === "text") return { type: "text_delta", text: event.text };
        if (thinking) {
          return { type: "thinking_delta", thinking: event.text };
        }
        return undefined;
      case "argumentsDelta":
        return kind === "toolCall" && event.json !== ""
          ? { type: "input_json_delta", partial_json: event.json }
          : undefined;
      case "signatureDelta":
        if (!thinking) return undefined;
        if (family === "anthropic") return { type: "signature_delta", signature: event.signature };
        // Another family's token is sealed whole when the block ends (it may arrive in pieces).
        block.foreignSignature += event.signature;
        return undefined;
    }
  };

  const deliver = (block: Block, event: BlockDeltaEvent) => {
    const delta = deltaFor(block, event);
    if (delta) send("content_block_delta", { index: block.out, delta });
  };

  const openBlock = (block: Block) => {
    ensureStarted();
    block.out = nextOut++;
    active = block.start.index;
    send("content_block_start", { index: block.out, content_block: contentBlock(block, block.out) });
    for (const event of block.buffered) deliver(block, event);
    block.buffered.length = 0;
  };

  const closeBlock = (block: Block) => {
    const { kind, family, redactedData } = block.start;
    const sealed = kind === "reasoning" && !isRedactedThinking(block.start)
      ? foreignSignature({ family, redactedData, signature: block.foreignSignature })
      : undefined;
    if (sealed) {
      send("content_block_delta", {
        index: block.out,
        delta: { type: "signature_delta", signature: sealed },
      });
    }
    send("content_block_stop", { index: block.out });
    blocks.delete(block.start.index);
    closed.add(block.start.index);
    active = undefined;
  };

  /** Opens waiting blocks in order until one is still streaming. */
  const drain = () => {
    while (active === undefined && queue.length > 0) {
      const block = blocks.get(queue.shift()!);
      if (!block) continue;
      openBlock(block);
      if (block.ended) closeBlock(block);
    }
  };

  const startBlock = (start: BlockStartEvent) => {
    if (blocks.has(start.index) || closed.has(start.index)) return;
    blocks.set(start.index, { start, buffered: [], ended: false, foreignSignature: "" });
    queue.push(start.index);
    drain();
  };

  const onDelta = (event: BlockDeltaEvent) => {
    if (closed.has(event.index)) return;
    if (!blocks.has(event.index)) {
      // A delta without a blockStart (a lax decoder): open a block of the kind the delta implies.
      const kind = event.type === "textDelta"
        ? "text"
        : event.type === "argumentsDelta"
        ? "toolCall"
        : "reasoning";
      startBlock({ type: "blockStart", index: event.index, kind });
    }
    const block = blocks.get(event.index)!;
    if (block.out !== undefined) deliver(block, event);
    else block.buffered.push(event);
  };

  const onEnd = (index: number) => {
    const block = blocks.get(index);
    if (!block) return;
    if (active === index) {
      closeBlock(block);
      drain();
    } else {
      block.ended = true;
    }
  };

  const onEvent = (event: StreamEvent) => {
    switch (event.type) {
      case "start":
        if (id === "") id = event.id;
        return;
      case "blockStart":
        startBlock(event);
        return;
      case "textDelta":
      case "argumentsDelta":
      case "signatureDelta":
        onDelta(event);
        return;
      case "blockEnd":
        onEnd(event.index);
        return;
      case "usage":
        usage = mergeUsage(usage, event.usage);
        return;
      case "finish":
        finish = event.finish;
        return;
      case "error":
        failed = true;
        out({
          event: "error",
          data: JSON.stringify(errorBody(errorTypeForKindName(event.kind), event.message)),
        });
        return;
    }
  };

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      if (failed) return;
      out = (frame) => controller.enqueue(frame);
      onEvent(event);
    },
    flush(controller) {
      if (failed) return;
      out = (frame) => controller.enqueue(frame);
      ensureStarted();
      // Whatever is still open or waiting was cut off upstream: close it in order.
      for (const block of blocks.values()) block.ended = true;
      if (active !== undefined) onEnd(active);
      drain();
      send("message_delta", {
        delta: { stop_reason: encodeStopReason(finish, sawToolUse), stop_sequence: null },
        usage: unfoldUsage(usage),
      });
      send("message_stop", {});
    },
  });
}

/** The same stream as SSE text (what a client reads), for callers outside the gateway's pump. */
export function encodeStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeFrames(ctx), "sse");
}
