/** The OpenAI chat-completions wire format: its codec and the same-format stream passthrough. */
import type { Codec } from "../codec.ts";
import { encodeChatError } from "./errors.ts";
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

export { chatCompletionsPassthrough, chatPassthroughFrames } from "./passthrough.ts";
export type { PassthroughObserver, PassthroughOptions } from "./passthrough.ts";
export { DONE_FRAME } from "./stream_encode.ts";
