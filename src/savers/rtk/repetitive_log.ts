import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";

/** Runs shorter than this are left alone: a marker would not be shorter. */
const MIN_RUN = 3;

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const TIME = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
// A number standing alone (a counter, a latency with its unit), never one inside a name like worker-3.
const NUMBER = /(?<![\w.\-/])\d+(?:\.\d+)?(?:ms|us|µs|ns|s|%|[kKMG]i?B)?(?![\w/])/g;

// Timestamps or log levels near the start: only then do lines differing in numbers count as repeats,
// so numeric tables and listings are never folded.
const LOG_SIGNALS = /\d{1,2}:\d{2}:\d{2}|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR)\b/;

/**
 * The key under which consecutive lines count as repeats: in logs (`fuzzy`) timestamps and plain
 * numbers (counters, latencies) are normalised; ids, paths and words never are, so a line that names
 * something new always breaks the run. Error lines only repeat when identical.
 */
export function repeatKey(line: string, fuzzy = true): string {
  if (!fuzzy || isErrorLine(line)) return `=${line}`;
  return `~${line.replace(TIMESTAMP, "<ts>").replace(TIME, "<t>").replace(NUMBER, "<n>")}`;
}

interface Run {
  readonly start: number;
  readonly length: number;
  readonly exact: boolean;
}

function runs(lines: readonly string[], fuzzy: boolean): Run[] {
  const out: Run[] = [];
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

function isLog(lines: readonly string[]): boolean {
  return LOG_SIGNALS.test(lines.slice(0, 40).join("\n").slice(0, 1024));
}

/**
 * Collapses runs of consecutive repeats into the first line and a marker with the count (the last line
 * too when the run's numbers vary, to show their range). Blank lines are never folded. With `fuzzy`
 * off only byte-identical lines count as repeats.
 */
export function foldRepeats(lines: readonly string[], fuzzy: boolean): string[] {
  const out: string[] = [];
  for (const run of runs(lines, fuzzy)) {
    const first = lines[run.start];
    if (run.length < MIN_RUN || first.trim() === "") {
      out.push(...lines.slice(run.start, run.start + run.length));
    } else if (run.exact) {
      out.push(first, `… [rtk: the line above repeated ${run.length - 1} more times]`);
    } else {
      out.push(
        first,
        `… [rtk: ${run.length - 2} similar lines omitted, only numbers or timestamps differ]`,
        lines[run.start + run.length - 1],
      );
    }
  }
  return out;
}

/** Repetitive logs: runs of identical or near-identical consecutive lines collapse into a count. */
export const repetitiveLogFilter: RtkFilter = {
  name: "repetitive_log",
  detect(lines) {
    if (lines.length < 20) return false;
    let folded = 0;
    for (const run of runs(lines, isLog(lines))) if (run.length >= MIN_RUN) folded += run.length - 2;
    return folded >= lines.length * 0.2;
  },
  apply(lines) {
    return foldRepeats(lines, isLog(lines));
  },
};
