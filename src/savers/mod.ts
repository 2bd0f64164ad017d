/** Token savers: shrink the neutral request before routing, so every wire format benefits. */
export type { Saver, SaverContext, SaverLevel, SaverName } from "./types.ts";
export { SAVER_ORDER } from "./types.ts";
export { runSavers } from "./pipeline.ts";
export type { SaverErrorHandler } from "./pipeline.ts";
export { emptySaverStats, mergeStat, savings } from "./stats.ts";
export type { SaverStatEvent, SaverStats } from "./stats.ts";
export { buildSavers } from "./build.ts";
export type { SaverDeps, SaverSettings } from "./build.ts";
export { promptBytes, utf8Length } from "./measure.ts";
export { CAVEMAN_INSTRUCTIONS, cavemanInstruction, cavemanSaver } from "./caveman.ts";
export { PONYTAIL_INSTRUCTIONS, ponytailInstruction, ponytailSaver } from "./ponytail.ts";
export { insertSystemInstruction } from "./system_instruction.ts";
export {
  HEADROOM_MAX_BODY_BYTES,
  HEADROOM_TIMEOUT_MS,
  HeadroomError,
  headroomSaver,
} from "./headroom/headroom.ts";
export type { HeadroomDeps } from "./headroom/headroom.ts";
export { compressToolOutput, rtkCompressRequest, rtkSaver } from "./rtk/mod.ts";
