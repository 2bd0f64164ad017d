import type {
  ImagePart,
  Part,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "../../model/mod.ts";
import { splitExtra } from "../../model/mod.ts";
import type { GeminiPart } from "./schema.ts";

const FORMAT = "generate_content";

/** Part keys mapped to neutral fields; everything else (thoughtSignature on text, videoMetadata…) is extra. */
const TEXT_KEYS: ReadonlySet<string> = new Set(["text", "thought"]);
const THOUGHT_KEYS: ReadonlySet<string> = new Set(["text", "thought", "thoughtSignature"]);
const CALL_KEYS: ReadonlySet<string> = new Set(["functionCall", "thoughtSignature"]);
const RESPONSE_KEYS: ReadonlySet<string> = new Set(["functionResponse"]);
const INLINE_KEYS: ReadonlySet<string> = new Set(["inlineData"]);
const FILE_KEYS: ReadonlySet<string> = new Set(["fileData"]);
/** A typed `fileData` stays whole in extra: the neutral URL image has no place for its mimeType. */
const TYPED_FILE_KEYS: ReadonlySet<string> = new Set();

/** How tool ids are chosen while decoding parts (explicit ids win; missing ones are synthesised). */
export interface ToolIdPolicy {
  callId(name: string, explicit: string | undefined): string;
  resultId(name: string, explicit: string | undefined): string;
}

/** Decodes one Gemini part; undefined when it carries none of the fields the gateway knows. */
export function decodePart(part: GeminiPart, ids: ToolIdPolicy): Part | undefined {
  if (part.functionCall) return decodeCall(part, part.functionCall, ids);
  if (part.functionResponse) return decodeResult(part, part.functionResponse, ids);
  if (part.inlineData) {
    const image: ImagePart = {
      kind: "image",
      source: { type: "base64", mediaType: part.inlineData.mimeType, data: part.inlineData.data },
      extra: splitExtra(part, INLINE_KEYS, FORMAT),
    };
    return withoutEmptyExtra(image);
  }
  if (part.fileData) {
    const keys = part.fileData.mimeType === undefined ? FILE_KEYS : TYPED_FILE_KEYS;
    const image: ImagePart = {
      kind: "image",
      source: { type: "url", url: part.fileData.fileUri },
      extra: splitExtra(part, keys, FORMAT),
    };
    return withoutEmptyExtra(image);
  }
  if (part.text !== undefined) {
    if (part.thought === true) {
      const reasoning: ReasoningPart = {
        kind: "reasoning",
        text: part.text,
        family: "google",
        ...(part.thoughtSignature === undefined ? {} : { signature: part.thoughtSignature }),
        extra: splitExtra(part, THOUGHT_KEYS, FORMAT),
      };
      return withoutEmptyExtra(reasoning);
    }
    const text: TextPart = { kind: "text", text: part.text, extra: splitExtra(part, TEXT_KEYS, FORMAT) };
    return withoutEmptyExtra(text);
  }
  return undefined;
}

function decodeCall(
  part: GeminiPart,
  call: NonNullable<GeminiPart["functionCall"]>,
  ids: ToolIdPolicy,
): ToolCallPart {
  const toolCall: ToolCallPart = {
    kind: "toolCall",
    id: ids.callId(call.name, call.id),
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
    family: "google",
    ...(part.thoughtSignature === undefined ? {} : { signature: part.thoughtSignature }),
    extra: splitExtra(part, CALL_KEYS, FORMAT),
  };
  return withoutEmptyExtra(toolCall);
}

function decodeResult(
  part: GeminiPart,
  response: NonNullable<GeminiPart["functionResponse"]>,
  ids: ToolIdPolicy,
): ToolResultPart {
  const result: ToolResultPart = {
    kind: "toolResult",
    callId: ids.resultId(response.name, response.id),
    name: response.name,
    content: [{ kind: "text", text: JSON.stringify(response.response ?? {}) }],
    extra: splitExtra(part, RESPONSE_KEYS, FORMAT),
  };
  return withoutEmptyExtra(result);
}

/** Drops an `extra: undefined` key so decoded parts compare cleanly. */
function withoutEmptyExtra<T extends { readonly extra?: unknown }>(part: T): T {
  if (part.extra !== undefined) return part;
  const { extra: _, ...rest } = part;
  return rest as T;
}
