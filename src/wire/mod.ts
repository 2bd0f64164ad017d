/** The codec registry: one codec per wire format. */
import type { UpstreamFormat, WireFormat } from "../model/mod.ts";
import type { Codec, UpstreamCodec } from "./codec.ts";
import { cloudAssistantCodec } from "./kiro/mod.ts";
import { chatCompletionsCodec, legacyCompletionsCodec } from "./chat_completions/mod.ts";
import { generateContentCodec } from "./generate_content/mod.ts";
import { localRunnerCodec } from "./local_runner/mod.ts";
import { messagesCodec } from "./messages/mod.ts";
import { responsesCodec } from "./responses/mod.ts";
import { withinLimits } from "./shared/limits.ts";

export type {
  Codec,
  DecodeContext,
  EncodeContext,
  EncodedError,
  EncodedRequest,
  Framing,
  UpstreamCodec,
  UpstreamFraming,
} from "./codec.ts";
export { cloudAssistantCodec } from "./kiro/mod.ts";
export {
  type CloudCodeClient,
  unwrapCloudCodeFrames,
  unwrapCloudCodeResponse,
  wrapCloudCodeRequest,
} from "./cloud_code/mod.ts";
export {
  chatCompletionsPassthrough,
  chatPassthroughBytes,
  type PassthroughObserver,
} from "./chat_completions/mod.ts";
export { showBody, tagsBody, versionBody } from "./local_runner/mod.ts";
export { type CountableInput, countableInput } from "./messages/mod.ts";

export {
  checkJsonShape,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  MAX_MODEL_NAME_LENGTH,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  MAX_TOOLS,
  modelNameProblem,
} from "./shared/limits.ts";
export { quoteValue } from "./shared/zod_issues.ts";
export { hasCompactionTrigger } from "./responses/compaction.ts";

/** Every client request, whatever its surface, is held to the shared limits (model name, tool count). */
function limited(codec: Codec): Codec {
  return { ...codec, decodeRequest: (body, ctx) => withinLimits(codec.decodeRequest(body, ctx)) };
}

const CODECS: Readonly<Record<WireFormat, Codec>> = {
  chat_completions: limited(chatCompletionsCodec),
  responses: limited(responsesCodec),
  messages: limited(messagesCodec),
  generate_content: limited(generateContentCodec),
  local_runner: limited(localRunnerCodec),
};

const LEGACY_COMPLETIONS = limited(legacyCompletionsCodec);

/**
 * The codec of a wire format; `endpoint` picks a surface with shapes of its own within the format
 * (`completions`: OpenAI's legacy `/v1/completions`).
 */
export function codecFor(format: WireFormat, endpoint?: string): Codec {
  return format === "chat_completions" && endpoint === "completions" ? LEGACY_COMPLETIONS : CODECS[format];
}

/** The upstream half of a format: a client codec, or the codec of a format only upstreams speak. */
export function upstreamCodecFor(format: UpstreamFormat): UpstreamCodec {
  return format === "cloud_assistant" ? cloudAssistantCodec : CODECS[format];
}
