/** The OpenAI Responses API codec: `POST /v1/responses` clients and Responses-speaking upstreams. */
import type { Codec } from "../codec.ts";
import { encodeError } from "./errors.ts";
import { decodeRequest } from "./request_decode.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeResponse } from "./response_decode.ts";
import { encodeResponse } from "./response_encode.ts";
import { decodeStream } from "./stream_decode.ts";
import { encodeFrames, encodeStream } from "./stream_encode.ts";
import { frameWithModel, isRecord, type ModelSlot } from "../shared/mod.ts";

/** Where this format's stream frames name the model (every response.* event carrying the response object names the model). */
const MODEL_SLOT: ModelSlot = {
  needle: '"model"',
  holder: (frame) => (isRecord(frame.response) ? frame.response : undefined),
  key: "model",
};

/** The Responses codec: named-event SSE, no `[DONE]`, `store: false` upstream by default (the gateway keeps the state). */
export const responsesCodec: Codec = {
  format: "responses",
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

export {
  decodeRequest,
  decodeResponse,
  decodeStream,
  encodeError,
  encodeRequest,
  encodeResponse,
  encodeStream,
};
