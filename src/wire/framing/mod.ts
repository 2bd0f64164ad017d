/** Stream framing shared by every codec: SSE and NDJSON, in both directions. */
export type { Frame } from "./frame.ts";
export { splitJoinedData, sseEvent, sseFrames } from "./sse.ts";
export { type ClientFraming, framedText, frameText } from "./frame_text.ts";
export { type FramingOptions, MAX_EVENT_CHARS, overlongEvent } from "./event_limit.ts";
export { ndjsonFrames, ndjsonLine } from "./ndjson.ts";
export {
  decodeEventStream,
  eventStreamFrame,
  eventStreamFrames,
  type EventStreamHeader,
  type EventStreamHeaderValue,
  type EventStreamMessage,
  MAX_EVENT_STREAM_MESSAGE,
  stringHeader,
} from "./event_stream.ts";
