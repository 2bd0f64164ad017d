/** The Gemini generateContent wire format: client surface and upstream codec. */
import type { Codec } from "../codec.ts";
import { encodeError } from "./errors.ts";
import { decodeRequest } from "./request_decode.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeResponse } from "./response_decode.ts";
import { encodeResponse } from "./response_encode.ts";
import { decodeStream } from "./stream_decode.ts";
import { encodeFrames, encodeStream } from "./stream_encode.ts";
import { frameWithModel, type ModelSlot } from "../shared/mod.ts";

/** Where this format's stream frames name the model (every chunk names the model in modelVersion). */
const MODEL_SLOT: ModelSlot = {
  needle: '"modelVersion"',
  holder: (frame) => frame,
  key: "modelVersion",
};

/** The generateContent codec (`/v1beta/models/{model}:generateContent` and `:streamGenerateContent`). */
export const generateContentCodec: Codec = {
  format: "generate_content",
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

export { reduceSchema } from "./schema_reduce.ts";
export { DEFAULT_MODEL_PREFIX } from "./request_decode.ts";
export {
  THINKING_BUDGET_HIGH,
  THINKING_BUDGET_LOW,
  THINKING_BUDGET_MEDIUM,
  THINKING_BUDGET_MINIMAL,
} from "./thinking.ts";
