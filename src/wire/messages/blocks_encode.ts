import { extraFieldsFor } from "../../model/mod.ts";
import type {
  CacheControl,
  ImagePart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "../../model/mod.ts";
import { argumentsObject, toolIdFor } from "../shared/mod.ts";
import { sealReasoning } from "../shared/reasoning_envelope.ts";

const FORMAT = "messages";

/** A wire content block. */
export type Block = Record<string, unknown>;

/** Neutral cache control → the wire `cache_control` field, or nothing. */
export function cacheControlField(cacheControl: CacheControl | undefined): Block {
  if (!cacheControl) return {};
  return {
    cache_control: cacheControl.ttl === undefined
      ? { type: "ephemeral" }
      : { type: "ephemeral", ttl: cacheControl.ttl },
  };
}

/** A text part → `{type:"text"}`, with its own-format extra (citations…) merged back. */
export function textBlock(part: TextPart): Block {
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "text",
    text: part.text,
    ...cacheControlField(part.cacheControl),
  };
}

/** Whether a text block can be written as a plain string (no cache breakpoint, no extra fields). */
export function isPlainText(block: Block): boolean {
  return block.type === "text" && Object.keys(block).length === 2;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** An image part → `{type:"image"}`; data URLs (OpenAI clients send them) become base64 sources. */
export function imageBlock(part: ImagePart): Block {
  let source: Block;
  if (part.source.type === "base64") {
    source = { type: "base64", media_type: part.source.mediaType, data: part.source.data };
  } else {
    const inline = DATA_URL.exec(part.source.url);
    source = inline
      ? { type: "base64", media_type: inline[1], data: inline[2] }
      : { type: "url", url: part.source.url };
  }
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "image",
    source,
    ...cacheControlField(part.cacheControl),
  };
}

/** A tool call → `{type:"tool_use"}`; the id is made valid for this API, arguments that are not an object become `{}`. */
export function toolUseBlock(part: ToolCallPart): Block {
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "tool_use",
    id: toolIdFor(part.id),
    name: part.name,
    input: argumentsObject(part.arguments),
  };
}

/** A tool result → `{type:"tool_result"}`, its id rewritten exactly like the matching tool_use id. */
export function toolResultBlock(part: ToolResultPart): Block {
  const items = part.content.map((item) => item.kind === "text" ? textBlock(item) : imageBlock(item));
  const only = items.length === 1 ? items[0] : undefined;
  const content = items.length === 0 ? {} : { content: only && isPlainText(only) ? only.text : items };
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "tool_result",
    tool_use_id: toolIdFor(part.callId),
    ...content,
    ...(part.isError !== undefined ? { is_error: part.isError } : {}),
    ...cacheControlField(part.cacheControl),
  };
}

/**
 * Reasoning the messages API will accept back: a thinking block with its signature, or a redacted
 * block, and only when the "anthropic" family produced it. Anything else would fail signature checks.
 */
export function replayableReasoning(part: ReasoningPart): Block | undefined {
  if (part.family !== "anthropic") return undefined;
  const extra = extraFieldsFor(part.extra, FORMAT);
  if (part.redactedData !== undefined) {
    return { ...extra, type: "redacted_thinking", data: part.redactedData };
  }
  if (!part.signature) return undefined;
  return { ...extra, type: "thinking", thinking: part.text, signature: part.signature };
}

/**
 * The signature a messages client gets for another family's opaque reasoning tokens (OpenAI's
 * encrypted_content, Gemini thought signatures): the gateway's envelope, so the client's next turn brings
 * them back to that upstream. Undefined when there is nothing opaque to carry.
 */
export function foreignSignature(
  part: Pick<ReasoningPart, "family" | "signature" | "redactedData" | "extra">,
): string | undefined {
  const { family, signature, redactedData, extra } = part;
  if (family === undefined || family === "anthropic" || (!signature && !redactedData)) return undefined;
  return sealReasoning({
    family,
    ...(signature ? { signature } : {}),
    ...(redactedData ? { redactedData } : {}),
    ...(extra ? { extra } : {}),
  });
}

/**
 * Reasoning as shown to a client: signed Anthropic reasoning as is; another family's opaque tokens
 * sealed in the signature (foreignSignature); other unsigned reasoning as a thinking block with an
 * empty signature (so it is recognised as unsigned if the client sends it back).
 */
export function displayedReasoning(part: ReasoningPart): Block | undefined {
  const replayable = replayableReasoning(part);
  if (replayable) return replayable;
  const sealed = foreignSignature(part);
  if (sealed) return { type: "thinking", thinking: part.text, signature: sealed };
  if (part.redactedData !== undefined) return undefined;
  return { type: "thinking", thinking: part.text, signature: "" };
}
