/** Helpers every codec may use; nothing here knows any one wire format. */
export { stableHash, syntheticToolId, toolIdFor } from "./tool_ids.ts";
export { argumentsLost, argumentsObject, isRecord, tryParseJson } from "./json.ts";
export { isErrorKind } from "./error_types.ts";
export { openAiTypeAndCode, readUpstreamError } from "./upstream_error.ts";
export { chainSteps, type StageOutput, type StageSteps, StreamStage } from "./stream_stage.ts";
export {
  fieldPath,
  invalidAt,
  invalidFromZod,
  parseAt,
  quoteValue,
  tryParse,
  zodProblem,
} from "./zod_issues.ts";
export { frameWithModel, type ModelSlot } from "./frame_model.ts";
export { requiresThoughtSignatures, SKIP_THOUGHT_SIGNATURE } from "./thought_signatures.ts";
export { type BlockLabels, BlockTracker, type Emit } from "./block_tracker.ts";
export { type CollectedError, EventCollector } from "./collect_events.ts";
