import type { BlockKind, Finish, ProviderFamily, StreamEvent, Usage } from "../../model/mod.ts";
import { mergeUsage, SYNTHETIC_STOP, ZERO_USAGE } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { type Frame, framedText } from "../framing/mod.ts";
import { argumentsObject } from "../shared/mod.ts";
import { geminiStatusForKindName } from "./errors.ts";
import { encodeFinish } from "./finish.ts";
import type { WirePart } from "./parts_encode.ts";
import { encodeUsage } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

interface BlockState {
  readonly kind: BlockKind;
  readonly family?: ProviderFamily;
  readonly id?: string;
  readonly name?: string;
  args: string;
  signature?: string;
}

/**
 * Neutral events → Gemini SSE (`data:` lines only, no `[DONE]`). Text and reasoning deltas go out as
 * they come; a tool call goes out as one functionCall part when its block ends, because Gemini
 * clients expect whole arguments. The last chunk carries finishReason and usageMetadata.
 */
export function encodeFrames(ctx: EncodeContext): StreamStage<StreamEvent, Frame> {
  let responseId = "";
  let usage: Usage = ZERO_USAGE;
  let finish: Finish | undefined;
  let failed = false;
  const blocks = new Map<number, BlockState>();

  const chunk = (parts: WirePart[], final = false): Frame => {
    const candidate: Record<string, unknown> = { content: { role: "model", parts } };
    if (final) candidate.finishReason = encodeFinish(finish ?? SYNTHETIC_STOP);
    candidate.index = 0;
    const body: Record<string, unknown> = { candidates: [candidate] };
    if (final) body.usageMetadata = encodeUsage(usage);
    body.modelVersion = ctx.requestModel;
    if (responseId !== "") body.responseId = responseId;
    return { data: JSON.stringify(body) };
  };

  // A signature is Gemini's only when the block says so, or (text and tool blocks) says nothing:
  // only the Gemini decoder puts signatures there.
  const geminiSigned = (block: BlockState): boolean =>
    block.family === "google" || (block.family === undefined && block.kind !== "reasoning");

  const toolCallChunk = (block: BlockState): Frame => {
    const call = {
      ...(block.id ? { id: block.id } : {}),
      name: block.name ?? "",
      args: argumentsObject(block.args),
    };
    const part: WirePart = { functionCall: call };
    if (block.signature !== undefined && geminiSigned(block)) part.thoughtSignature = block.signature;
    return chunk([part]);
  };

  return new StreamStage<StreamEvent, Frame>({
    transform(event, controller) {
      if (failed) return;
      switch (event.type) {
        case "start":
          responseId = event.id;
          break;
        case "blockStart":
          blocks.set(event.index, {
            kind: event.kind,
            family: event.family,
            id: event.id,
            name: event.name,
            args: "",
          });
          break;
        case "textDelta": {
          const block = blocks.get(event.index);
          if (event.text === "") break;
          controller.enqueue(
            chunk([block?.kind === "reasoning" ? { text: event.text, thought: true } : { text: event.text }]),
          );
          break;
        }
        case "argumentsDelta": {
          const block = blocks.get(event.index);
          if (block) block.args += event.json;
          break;
        }
        case "signatureDelta": {
          const block = blocks.get(event.index);
          if (!block) break;
          if (block.kind === "toolCall") block.signature = (block.signature ?? "") + event.signature;
          else if (geminiSigned(block)) {
            const part: WirePart = block.kind === "reasoning"
              ? { text: "", thought: true, thoughtSignature: event.signature }
              : { text: "", thoughtSignature: event.signature };
            controller.enqueue(chunk([part]));
          }
          break;
        }
        case "blockEnd": {
          const block = blocks.get(event.index);
          blocks.delete(event.index);
          if (block?.kind === "toolCall") controller.enqueue(toolCallChunk(block));
          break;
        }
        case "usage":
          usage = mergeUsage(usage, event.usage);
          break;
        case "finish":
          finish = event.finish;
          break;
        case "error":
          failed = true;
          controller.enqueue({
            data: JSON.stringify({
              error: {
                code: event.status,
                message: event.message,
                status: geminiStatusForKindName(event.kind),
              },
            }),
          });
          break;
      }
    },
    flush(controller) {
      if (failed) return;
      // Tool calls whose block never ended still reach the client before the final chunk.
      for (const block of blocks.values()) {
        if (block.kind === "toolCall") controller.enqueue(toolCallChunk(block));
      }
      blocks.clear();
      controller.enqueue(chunk([], true));
    },
  });
}

/** The same stream as SSE text (what a client reads), for callers outside the gateway's pump. */
export function encodeStream(ctx: EncodeContext): StreamStage<StreamEvent, string> {
  return framedText(encodeFrames(ctx), "sse");
}
