/** Stream framing shared by every codec: SSE and NDJSON, in both directions. */
export type { Frame } from "./frame.ts";
export { splitJoinedData, sseEvent, sseFrames } from "./sse.ts";
export { ndjsonFrames, ndjsonLine } from "./ndjson.ts";
