/**
 * Google Cloud Code `v1internal`: a generate-content body inside an envelope (project, model, ids) and
 * every answer, JSON or SSE event, inside `{response: …}`. The body itself is the generate-content codec's.
 */
export {
  type CloudCodeClient,
  type EnvelopeFields,
  unwrapFrames as unwrapCloudCodeFrames,
  unwrapResponse as unwrapCloudCodeResponse,
  withoutRootThinking,
  wrapRequest as wrapCloudCodeRequest,
} from "./envelope.ts";
