/** The local-runner (Ollama-style) wire format: /api/chat, /api/generate and the utility bodies. */
import type { Codec } from "../codec.ts";
import { encodeError } from "./errors.ts";
import { decodeRequest } from "./request_decode.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeResponse } from "./response_decode.ts";
import { encodeResponse } from "./response_encode.ts";
import { decodeStream } from "./stream_decode.ts";
import { encodeFrames, encodeStream } from "./stream_encode.ts";
import { frameWithModel, type ModelSlot } from "../shared/mod.ts";

/** Where this format's stream frames name the model (every NDJSON line names the model). */
const MODEL_SLOT: ModelSlot = {
  needle: '"model"',
  holder: (frame) => frame,
  key: "model",
};

/** The local-runner codec; streams are NDJSON and stream by default. */
export const localRunnerCodec: Codec = {
  format: "local_runner",
  framing: "ndjson",
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

export { modelDigest, showBody, tagsBody, versionBody } from "./meta.ts";
export type { ShowCapabilities, TagsModel } from "./meta.ts";
export { detectImageMediaType, SNIFFED_BASE64_CHARS } from "./images.ts";
