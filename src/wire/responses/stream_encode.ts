import type { BlockKind, Finish, ProviderFamily, StreamEvent, Usage } from "../../model/mod.ts";
import { SYNTHETIC_STOP } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { stableHash, syntheticToolId } from "../shared/mod.ts";
import { wireStatusFor } from "./finish.ts";
import { itemIdFor, responseIdFor } from "./ids.ts";
import { FAILED_ERROR } from "./response_encode.ts";
import {
  functionCallItem,
  messageItem,
  outputTextPart,
  reasoningItem,
  responseObject,
  type ResponseStatus,
  type WireObject,
} from "./response_object.ts";
import { usageToWire } from "./usage.ts";
import { type StageOutput, StreamStage } from "../shared/stream_stage.ts";
import { wrapForeignReasoning } from "./foreign_reasoning.ts";

/** What the encoder remembers about one neutral block. */
interface Block {
  readonly kind: BlockKind;
  readonly callId: string;
  readonly name: string;
  readonly family?: ProviderFamily;
  /** Encrypted reasoning so far: blockStart's redactedData plus any signature deltas. */
  encrypted: string;
  /** Another family's redacted reasoning, carried in a wrapped encrypted_content (foreign_reasoning.ts). */
  foreignRedacted?: string;
  text: string;
  /** Set once the output item is announced; blocks with nothing to show are never announced. */
  outputIndex?: number;
  itemId: string;
  closed: boolean;
}

/** Error codes Codex and the SDK recognise in `response.failed`, by neutral error kind. */
const STREAM_ERROR_CODES: Readonly<Record<string, string>> = {
  rate_limit: "rate_limit_exceeded",
  budget_exceeded: "insufficient_quota",
  invalid_request: "invalid_prompt",
  overloaded: "server_is_overloaded",
  unavailable: "server_is_overloaded",
};

/**
 * Neutral events → Responses SSE: named events with `type` and an increasing `sequence_number`, the
 * lifecycle the openai SDK's stream helper validates, and a final response.completed / incomplete /
 * failed carrying the whole response. There is no `[DONE]`.
 */
export function encodeFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  let sequence = 0;
  let id = responseIdFor(`gw_${ctx.answerId ?? stableHash(`${ctx.requestModel}:${ctx.now}`)}`);
  // The client sees the model id it asked for, whatever name the upstream reports.
  const model = ctx.requestModel;
  let createdAt = ctx.now;
  let started = false;
  let ended = false;
  let usage: Usage | undefined;
  let finish: Finish | undefined;
  const output: WireObject[] = [];
  const blocks = new Map<number, Block>();
  let out: StageOutput<Frame>;

  const send = (type: string, fields: WireObject) => {
    out.enqueue({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }) });
  };

  const snapshot = (
    status: ResponseStatus,
    details: { reason: string } | null,
    error: { code: string; message: string } | null,
  ) =>
    responseObject({
      id,
      createdAt,
      model,
      status,
      output: [...output],
      usage: status === "in_progress" || !usage ? null : usageToWire(usage),
      incompleteDetails: details,
      error,
    });

  const start = (event?: Extract<StreamEvent, { type: "start" }>) => {
    if (started) return;
    started = true;
    if (event) {
      if (event.id) id = responseIdFor(event.id);
      if (event.created !== undefined) createdAt = event.created;
    }
    send("response.created", { response: snapshot("in_progress", null, null) });
    send("response.in_progress", { response: snapshot("in_progress", null, null) });
  };

  /** Announces a block's output item at the next output index. */
  const announce = (block: Block, item: (itemId: string) => WireObject) => {
    const outputIndex = output.length;
    const prefix = block.kind === "text" ? "msg" : block.kind === "toolCall" ? "fc" : "rs";
    block.outputIndex = outputIndex;
    block.itemId = itemIdFor(prefix, id, outputIndex);
    const added = item(block.itemId);
    output.push(added);
    send("response.output_item.added", { output_index: outputIndex, item: added });
  };

  const at = (block: Block) => ({ item_id: block.itemId, output_index: block.outputIndex });

  const openText = (block: Block) => {
    announce(block, (itemId) => messageItem(itemId, "", false));
    send("response.content_part.added", { ...at(block), content_index: 0, part: outputTextPart("") });
  };

  const openReasoning = (block: Block, withSummary: boolean) => {
    announce(block, (itemId) => reasoningItem(itemId, "", undefined));
    if (withSummary) {
      send("response.reasoning_summary_part.added", {
        ...at(block),
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
    }
  };

  const finishItem = (block: Block, item: WireObject) => {
    output[block.outputIndex!] = item;
    send("response.output_item.done", { output_index: block.outputIndex, item });
  };

  const openBlock = (
    index: number,
    kind: BlockKind,
    event?: Extract<StreamEvent, { type: "blockStart" }>,
  ) => {
    const block: Block = {
      kind,
      callId: event?.id || syntheticToolId(id, index, event?.name ?? ""),
      name: event?.name ?? "",
      family: event?.family,
      encrypted: event?.family === "openai" ? event.redactedData ?? "" : "",
      foreignRedacted: event?.family === "openai" ? undefined : event?.redactedData,
      text: "",
      itemId: "",
      closed: false,
    };
    blocks.set(index, block);
    // Tool calls are announced at once so argument deltas have an item; text and reasoning wait for content.
    if (kind === "toolCall") {
      announce(block, (itemId) => functionCallItem(itemId, block.callId, block.name, "", false));
    }
    return block;
  };

  const textDelta = (index: number, delta: string) => {
    const block = blocks.get(index) ?? openBlock(index, "text");
    if (block.closed || delta === "") return;
    if (block.kind === "text") {
      if (block.outputIndex === undefined) openText(block);
      block.text += delta;
      send("response.output_text.delta", { ...at(block), content_index: 0, delta, logprobs: [] });
    } else if (block.kind === "reasoning") {
      if (block.outputIndex === undefined) openReasoning(block, true);
      block.text += delta;
      send("response.reasoning_summary_text.delta", { ...at(block), summary_index: 0, delta });
    }
  };

  const closeBlock = (block: Block) => {
    if (block.closed) return;
    block.closed = true;
    switch (block.kind) {
      case "text": {
        if (block.outputIndex === undefined) return;
        const { text } = block;
        send("response.output_text.done", { ...at(block), content_index: 0, text, logprobs: [] });
        send("response.content_part.done", { ...at(block), content_index: 0, part: outputTextPart(text) });
        finishItem(block, messageItem(block.itemId, text, true));
        return;
      }
      case "toolCall":
        send("response.function_call_arguments.done", {
          ...at(block),
          name: block.name,
          arguments: block.text,
        });
        finishItem(block, functionCallItem(block.itemId, block.callId, block.name, block.text, true));
        return;
      case "reasoning": {
        const encrypted = block.family === "openai"
          ? block.encrypted || undefined
          : wrapForeignReasoning(block.family, block.encrypted, block.foreignRedacted, block.text);
        if (block.outputIndex === undefined) {
          if (!encrypted) return;
          openReasoning(block, false);
        } else {
          const { text } = block;
          send("response.reasoning_summary_text.done", { ...at(block), summary_index: 0, text });
          send("response.reasoning_summary_part.done", {
            ...at(block),
            summary_index: 0,
            part: { type: "summary_text", text },
          });
        }
        finishItem(block, reasoningItem(block.itemId, block.text, encrypted));
        return;
      }
    }
  };

  const closeAll = () => {
    const open = [...blocks.entries()].filter(([, b]) => !b.closed).sort(([a], [b]) => a - b);
    for (const [, block] of open) closeBlock(block);
  };

  const handle = (event: StreamEvent) => {
    if (event.type !== "start") start();
    switch (event.type) {
      case "start":
        return start(event);
      case "blockStart": {
        const existing = blocks.get(event.index);
        if (!existing || existing.closed) openBlock(event.index, event.kind, event);
        return;
      }
      case "textDelta":
        return textDelta(event.index, event.text);
      case "argumentsDelta": {
        const block = blocks.get(event.index);
        if (!block || block.closed || block.kind !== "toolCall" || event.json === "") return;
        block.text += event.json;
        send("response.function_call_arguments.delta", { ...at(block), delta: event.json });
        return;
      }
      case "signatureDelta": {
        const block = blocks.get(event.index);
        // OpenAI's encrypted reasoning as it is; another family's signature is wrapped when the item ends.
        if (block && block.kind === "reasoning") block.encrypted += event.signature;
        return;
      }
      case "blockEnd": {
        const block = blocks.get(event.index);
        if (block) closeBlock(block);
        return;
      }
      case "usage":
        usage = event.usage;
        return;
      case "finish":
        finish = event.finish;
        return;
      case "error": {
        ended = true;
        const code = STREAM_ERROR_CODES[event.kind] ?? "server_error";
        send("response.failed", { response: snapshot("failed", null, { code, message: event.message }) });
        return;
      }
    }
  };

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      out = controller;
      if (!ended) handle(event);
    },
    flush(controller) {
      out = controller;
      if (ended) return;
      start();
      closeAll();
      ended = true;
      const { status, incompleteDetails } = wireStatusFor(finish ?? SYNTHETIC_STOP);
      const error = status === "failed" ? FAILED_ERROR : null;
      send(`response.${status}`, { response: snapshot(status, incompleteDetails, error) });
    },
  });
}

/** The same stream as SSE text (what a client reads), for callers outside the gateway's pump. */
export function encodeStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeFrames(ctx), "sse");
}
