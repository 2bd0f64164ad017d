/** RTK: rule-based compression of tool outputs. */
export { compressToolOutput, detectFilter, MAX_BYTES, MIN_BYTES, RTK_FILTERS } from "./compress.ts";
export type { RtkFilter } from "./filter.ts";
export { isErrorLine } from "./error_lines.ts";
export { smartTruncate } from "./smart_truncate.ts";
export { rtkCompressRequest, rtkSaver } from "./saver.ts";
