/** The Anthropic Messages wire format: POST /v1/messages bodies, answers, SSE streams and errors. */
import type { Codec } from "../codec.ts";
import { encodeError } from "./errors.ts";
import { decodeRequest } from "./request_decode.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeResponse } from "./response_decode.ts";
import { encodeResponse } from "./response_encode.ts";
import { decodeStream } from "./stream_decode.ts";
import { encodeStream } from "./stream_encode.ts";

/** The messages codec; streams are SSE with `event:` lines. */
export const messagesCodec: Codec = {
  format: "messages",
  framing: "sse",
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  decodeStream,
  encodeStream,
  encodeError,
};

export { DEFAULT_MAX_TOKENS, EFFORT_BUDGETS, MIN_THINKING_BUDGET } from "./thinking.ts";
