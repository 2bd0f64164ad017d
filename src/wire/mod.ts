/** The codec registry: one codec per wire format. */
import type { WireFormat } from "../model/mod.ts";
import type { Codec } from "./codec.ts";
import { chatCompletionsCodec } from "./chat_completions/mod.ts";
import { generateContentCodec } from "./generate_content/mod.ts";
import { localRunnerCodec } from "./local_runner/mod.ts";
import { messagesCodec } from "./messages/mod.ts";
import { responsesCodec } from "./responses/mod.ts";

export type { Codec, DecodeContext, EncodeContext, EncodedError, EncodedRequest, Framing } from "./codec.ts";
export { chatCompletionsPassthrough, type PassthroughObserver } from "./chat_completions/mod.ts";
export { showBody, tagsBody, versionBody } from "./local_runner/mod.ts";

const CODECS: Readonly<Record<WireFormat, Codec>> = {
  chat_completions: chatCompletionsCodec,
  responses: responsesCodec,
  messages: messagesCodec,
  generate_content: generateContentCodec,
  local_runner: localRunnerCodec,
};

/** The codec of a wire format. */
export function codecFor(format: WireFormat): Codec {
  return CODECS[format];
}
