/** The OpenAI chat-completions wire format: its codec and the same-format stream passthrough. */
import type { Codec } from "../codec.ts";
import { encodeChatError } from "./errors.ts";
import { decodeLegacyCompletionRequest } from "./legacy_request_decode.ts";
import { encodeLegacyCompletionResponse } from "./legacy_response_encode.ts";
import { encodeLegacyCompletionFrames, encodeLegacyCompletionStream } from "./legacy_stream_encode.ts";
import { decodeChatRequest } from "./request_decode.ts";
import { encodeChatRequest } from "./request_encode.ts";
import { decodeChatResponse } from "./response_decode.ts";
import { encodeChatResponse } from "./response_encode.ts";
import { decodeChatStream } from "./stream_decode.ts";
import { encodeChatFrames, encodeChatStream } from "./stream_encode.ts";

/** The chat-completions codec (`/v1/chat/completions` on both sides). */
export const chatCompletionsCodec: Codec = {
  format: "chat_completions",
  framing: "sse",
  decodeRequest: (body) => decodeChatRequest(body),
  encodeRequest: encodeChatRequest,
  decodeResponse: decodeChatResponse,
  encodeResponse: encodeChatResponse,
  decodeStream: decodeChatStream,
  encodeStream: encodeChatStream,
  encodeFrames: encodeChatFrames,
  encodeError: encodeChatError,
};

/**
 * The legacy completions surface (`/v1/completions`, prompt → text) of the same format: its own request and
 * answer shapes, and chat completions towards upstreams. Being another codec object than the chat codec, it
 * is always translated, never passed through (a chat upstream's chunks are not text completions).
 */
export const legacyCompletionsCodec: Codec = {
  ...chatCompletionsCodec,
  decodeRequest: (body) => decodeLegacyCompletionRequest(body),
  encodeResponse: encodeLegacyCompletionResponse,
  encodeStream: encodeLegacyCompletionStream,
  encodeFrames: encodeLegacyCompletionFrames,
};

export { chatCompletionsPassthrough } from "./passthrough.ts";
export { chatPassthroughBytes } from "./passthrough_bytes.ts";
export type { PassthroughObserver, PassthroughOptions } from "./passthrough.ts";
export { DONE_FRAME } from "./stream_encode.ts";
