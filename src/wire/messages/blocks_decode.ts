import { splitExtra } from "../../model/mod.ts";
import type {
  CacheControl,
  Extra,
  ImagePart,
  ImageSource,
  Part,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "../../model/mod.ts";
import { invalidAt, parseAt, quoteValue } from "../shared/mod.ts";
import { openReasoning } from "../shared/reasoning_envelope.ts";
import {
  imageBlockSchema,
  redactedThinkingBlockSchema,
  textBlockSchema,
  thinkingBlockSchema,
  toolResultBlockSchema,
  toolUseBlockSchema,
} from "./schema.ts";
import type { BlockHead, CacheControlBody } from "./schema.ts";

const FORMAT = "messages";
type Path = readonly PropertyKey[];

const TEXT_KEYS = new Set(["type", "text", "cache_control"]);
const IMAGE_KEYS = new Set(["type", "source", "cache_control"]);
const TOOL_USE_KEYS = new Set(["type", "id", "name", "input"]);
const TOOL_RESULT_KEYS = new Set(["type", "tool_use_id", "content", "is_error", "cache_control"]);
const THINKING_KEYS = new Set(["type", "thinking", "signature"]);
const REDACTED_KEYS = new Set(["type", "data"]);
/** The block types a message may carry, for the error message on anything else. */
const SUPPORTED = "text, image, tool_use, tool_result, thinking, redacted_thinking";

/** Wire cache_control → neutral. */
export function cacheControlOf(raw: CacheControlBody | null | undefined): CacheControl | undefined {
  if (!raw) return undefined;
  return raw.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: raw.ttl };
}

function withExtra<T extends object>(part: T, extra: Extra | undefined): T {
  return extra ? { ...part, extra } : part;
}

/** A text block (system, message or tool-result content). */
export function decodeTextBlock(block: BlockHead, path: Path): TextPart {
  const text = parseAt(textBlockSchema, block, path);
  const cacheControl = cacheControlOf(text.cache_control);
  return withExtra(
    { kind: "text", text: text.text, ...(cacheControl ? { cacheControl } : {}) },
    splitExtra(text, TEXT_KEYS, FORMAT),
  );
}

function decodeImage(block: BlockHead, path: Path): ImagePart {
  const image = parseAt(imageBlockSchema, block, path);
  const source: ImageSource = image.source.type === "url"
    ? { type: "url", url: image.source.url }
    : { type: "base64", mediaType: image.source.media_type, data: image.source.data };
  const cacheControl = cacheControlOf(image.cache_control);
  return withExtra(
    { kind: "image", source, ...(cacheControl ? { cacheControl } : {}) },
    splitExtra(image, IMAGE_KEYS, FORMAT),
  );
}

function decodeToolUse(block: BlockHead, path: Path): ToolCallPart {
  const call = parseAt(toolUseBlockSchema, block, path);
  return withExtra(
    { kind: "toolCall", id: call.id, name: call.name, arguments: JSON.stringify(call.input ?? {}) },
    // cache_control on a tool_use block has no neutral field; extra keeps it for same-format trips.
    splitExtra(call, TOOL_USE_KEYS, FORMAT),
  );
}

function decodeResultContent(block: BlockHead, path: Path): TextPart | ImagePart {
  switch (block.type) {
    case "text":
      return decodeTextBlock(block, path);
    case "image":
      return decodeImage(block, path);
    default:
      throw invalidAt(
        [...path, "type"],
        `unsupported tool_result content block type ${quoteValue(block.type)} (supported: text, image)`,
      );
  }
}

function decodeToolResult(block: BlockHead, path: Path): ToolResultPart {
  const result = parseAt(toolResultBlockSchema, block, path);
  const raw = result.content;
  const content = raw === undefined || raw === null
    ? []
    : typeof raw === "string"
    ? [{ kind: "text" as const, text: raw }]
    : raw.map((item, i) => decodeResultContent(item, [...path, "content", i]));
  const cacheControl = cacheControlOf(result.cache_control);
  return withExtra(
    {
      kind: "toolResult",
      callId: result.tool_use_id,
      content,
      ...(typeof result.is_error === "boolean" ? { isError: result.is_error } : {}),
      ...(cacheControl ? { cacheControl } : {}),
    },
    splitExtra(result, TOOL_RESULT_KEYS, FORMAT),
  );
}

function decodeThinking(block: BlockHead, path: Path): ReasoningPart {
  const thinking = parseAt(thinkingBlockSchema, block, path);
  // Another family's tokens the gateway sealed into the signature go back to that family as they came.
  const sealed = thinking.signature ? openReasoning(thinking.signature) : undefined;
  if (sealed) {
    const { text: _, ...tokens } = sealed;
    return { kind: "reasoning", text: thinking.thinking, ...tokens };
  }
  // Only a signed block can be replayed; an unsigned one (e.g. another provider's reasoning shown
  // to this client earlier) gets no family, so encoders drop it instead of sending a bad signature.
  const signed = thinking.signature ? { signature: thinking.signature, family: "anthropic" as const } : {};
  return withExtra(
    { kind: "reasoning", text: thinking.thinking, ...signed },
    splitExtra(thinking, THINKING_KEYS, FORMAT),
  );
}

function decodeRedacted(block: BlockHead, path: Path): ReasoningPart {
  const redacted = parseAt(redactedThinkingBlockSchema, block, path);
  return withExtra(
    { kind: "reasoning", text: "", redactedData: redacted.data, family: "anthropic" },
    splitExtra(redacted, REDACTED_KEYS, FORMAT),
  );
}

/** One message content block → a neutral part; unknown types are a 400 naming the block. */
export function decodeBlock(block: BlockHead, path: Path): Part {
  switch (block.type) {
    case "text":
      return decodeTextBlock(block, path);
    case "image":
      return decodeImage(block, path);
    case "tool_use":
      return decodeToolUse(block, path);
    case "tool_result":
      return decodeToolResult(block, path);
    case "thinking":
      return decodeThinking(block, path);
    case "redacted_thinking":
      return decodeRedacted(block, path);
    default:
      throw invalidAt(
        [...path, "type"],
        `unsupported content block type ${quoteValue(block.type)} (supported: ${SUPPORTED})`,
      );
  }
}
