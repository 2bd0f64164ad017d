/** RTK: rule-based compression of tool outputs that drops only what is redundant. */
export {
  compressToolOutput,
  detectFilter,
  MAX_BYTES,
  MIN_BYTES,
  MIN_LINES,
  RTK_FILTERS,
} from "./compress.ts";
export type { RtkFilter } from "./filter.ts";
export { isErrorLine } from "./error_lines.ts";
export { isNoise } from "./noise.ts";
export { rtkCompressRequest, rtkSaver } from "./saver.ts";
