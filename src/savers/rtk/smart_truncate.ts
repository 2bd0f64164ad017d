import { isErrorLine } from "./error_lines.ts";
import { keepWithGaps } from "./gaps.ts";

/** Outputs longer than this many lines are truncated. */
export const TRUNCATE_ABOVE_LINES = 250;
/** Lines kept from the start. */
export const TRUNCATE_HEAD_LINES = 120;
/** Lines kept from the end. */
export const TRUNCATE_TAIL_LINES = 60;

/**
 * Keeps the first 120 and last 60 lines of a long output and, from the middle, every error-looking
 * line; each removed run becomes a marker line saying how many lines it held.
 */
export function smartTruncate(lines: readonly string[]): string[] {
  if (lines.length <= TRUNCATE_ABOVE_LINES) return [...lines];
  const tailStart = lines.length - TRUNCATE_TAIL_LINES;
  const keep = lines.map((line, i) => i < TRUNCATE_HEAD_LINES || i >= tailStart || isErrorLine(line));
  return keepWithGaps(lines, keep);
}
