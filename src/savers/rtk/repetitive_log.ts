import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";

/** Runs shorter than this are left alone: a marker would not be shorter. */
const MIN_RUN = 3;

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const TIME = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
const HEX = /\b(?:0x)?[0-9a-f]{8,}\b/gi;
const NUMBER = /\d+(?:\.\d+)?/g;

// Timestamps or log levels near the start: only then do lines differing in numbers count as repeats,
// so numeric tables and listings are never folded.
const LOG_SIGNALS = /\d{1,2}:\d{2}:\d{2}|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR)\b/;

/**
 * The key under which consecutive lines count as repeats: numbers, timestamps and ids normalised in
 * logs (`fuzzy`), exact text otherwise. Error lines only repeat when identical, so distinct errors are
 * never folded together.
 */
export function repeatKey(line: string, fuzzy = true): string {
  if (!fuzzy || isErrorLine(line)) return `=${line}`;
  return `~${
    line.replace(TIMESTAMP, "<ts>").replace(TIME, "<t>").replace(HEX, "<id>").replace(NUMBER, "<n>")
  }`;
}

function runs(lines: readonly string[]): { start: number; length: number; exact: boolean }[] {
  const fuzzy = LOG_SIGNALS.test(lines.slice(0, 40).join("\n").slice(0, 1024));
  const out: { start: number; length: number; exact: boolean }[] = [];
  let start = 0;
  while (start < lines.length) {
    const key = repeatKey(lines[start], fuzzy);
    let end = start + 1;
    let exact = true;
    while (end < lines.length && repeatKey(lines[end], fuzzy) === key) {
      if (lines[end] !== lines[start]) exact = false;
      end++;
    }
    out.push({ start, length: end - start, exact });
    start = end;
  }
  return out;
}

/** Repetitive logs: runs of identical or near-identical consecutive lines collapse into a count. */
export const repetitiveLogFilter: RtkFilter = {
  name: "repetitive_log",
  truncatable: true,
  detect(lines) {
    if (lines.length < 20) return false;
    let folded = 0;
    for (const run of runs(lines)) if (run.length >= MIN_RUN) folded += run.length - 2;
    return folded >= lines.length * 0.2;
  },
  apply(lines) {
    const out: string[] = [];
    for (const run of runs(lines)) {
      if (run.length < MIN_RUN) {
        out.push(...lines.slice(run.start, run.start + run.length));
      } else if (run.exact) {
        out.push(lines[run.start], `… repeated ${run.length - 1} more times`);
      } else {
        // First and last show the range the varying numbers or timestamps went through.
        out.push(
          lines[run.start],
          `… ${run.length - 2} similar lines (only numbers or timestamps differ)`,
          lines[run.start + run.length - 1],
        );
      }
    }
    return out;
  },
};
