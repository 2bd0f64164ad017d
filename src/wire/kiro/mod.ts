/**
 * The cloud assistant's (Kiro / CodeWhisperer) upstream format: a conversation-state request body and an
 * answer in binary AWS event-stream frames. Upstream only: no client speaks it, so it has no client half.
 */
import type { UpstreamCodec } from "../codec.ts";
import { encodeRequest } from "./request_encode.ts";
import { decodeStream } from "./stream_decode.ts";

export {
  encodeRequest as encodeKiroRequest,
  KIRO_DEFAULT_MAX_TOKENS,
  KIRO_DEFAULT_ORIGIN,
} from "./request_encode.ts";
export { decodeFinish as decodeKiroFinish, decodeStream as decodeKiroStream } from "./stream_decode.ts";
export { type Segment, ThinkingSplitter } from "./thinking_tags.ts";

/** The cloud assistant as an upstream: it always answers with an event stream, so it has no JSON decoder. */
export const cloudAssistantCodec: UpstreamCodec = {
  format: "cloud_assistant",
  framing: "eventstream",
  encodeRequest,
  decodeStream,
};
