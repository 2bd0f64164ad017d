/** The Anthropic Messages wire format: POST /v1/messages bodies, answers, SSE streams and errors. */
import type { Codec } from "../codec.ts";
import { encodeError } from "./errors.ts";
import { decodeRequest } from "./request_decode.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeResponse } from "./response_decode.ts";
import { encodeResponse } from "./response_encode.ts";
import { decodeStream } from "./stream_decode.ts";
import { encodeFrames, encodeStream } from "./stream_encode.ts";
import { frameWithModel, isRecord, type ModelSlot } from "../shared/mod.ts";

/** Where this format's stream frames name the model (message_start names the model). */
const MODEL_SLOT: ModelSlot = {
  needle: '"message_start"',
  holder: (frame) => (frame.type === "message_start" && isRecord(frame.message) ? frame.message : undefined),
  key: "model",
};

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
  encodeFrames,
  encodeError,
  streamFrameWithModel: (data, model) => frameWithModel(data, model, MODEL_SLOT),
};

export { DEFAULT_MAX_TOKENS, EFFORT_BUDGETS, MIN_THINKING_BUDGET } from "./thinking.ts";
export { type CountableInput, countableInput } from "./count_input.ts";
