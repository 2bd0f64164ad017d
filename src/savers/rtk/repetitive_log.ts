import { isTroubleLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";
import { keepWithGaps } from "./gaps.ts";
import { isProgressRun } from "./progress_lines.ts";
import { looksLikeLog, maskTimestamps } from "./volatile.ts";

/** Runs shorter than this are left alone: a marker would not be shorter. */
const MIN_RUN = 3;

/** The marker for lines dropped from a log because an identical line (timestamp aside) is kept. */
export const LOG_REPEAT_WHAT = "lines that repeat a line above except for the timestamp";

// Lines of one shape (the same text once digits and column padding are ignored) form a run. The shape
// only groups: what a run may lose is decided by the lines' values, never by the shape.
function shapeOf(line: string, log: boolean): string {
  return (log ? maskTimestamps(line) : line).replace(/\d+/g, "#").replace(/\s+/g, " ");
}

// Everything a line says, apart from when a log printed it. Status codes, ids, counts, durations,
// line numbers and versions are all part of it, so a line that differs in any of them is kept.
function valueOf(line: string, log: boolean): string {
  return log ? maskTimestamps(line) : line;
}

// Byte-identical consecutive lines: the first stays, a count stands for the others. Lossless.
function foldIdentical(run: readonly string[]): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < run.length) {
    let end = start + 1;
    while (end < run.length && run[end] === run[start]) end++;
    const length = end - start;
    if (length >= MIN_RUN && run[start].trim() !== "") {
      out.push(run[start], `… [rtk: the line above repeated ${length - 1} more times]`);
    } else out.push(...run.slice(start, end));
    start = end;
  }
  return out;
}

// In a log, a line whose value (timestamp aside) an earlier line of its run already showed is dropped;
// the run's first and last lines stay to show when it began and ended. A line reporting trouble (an
// error, a warning, a 4xx/5xx) is only dropped when it repeats the line right before it, so every
// separate recurrence keeps its line and its time. A lone dropped line stays too: its marker would be
// no shorter.
function foldLogRun(run: readonly string[]): string[] {
  const seen = new Set<string>();
  const values = run.map((line) => valueOf(line, true));
  const keep = run.map((line, i) => {
    const value = values[i];
    const fresh = isTroubleLine(line) ? i === 0 || values[i - 1] !== value : !seen.has(value);
    seen.add(value);
    return fresh || (i === run.length - 1 && line !== run[0]);
  });
  for (let i = 1; i < run.length - 1; i++) if (!keep[i] && keep[i - 1] && keep[i + 1]) keep[i] = true;
  if (!keep[run.length - 1] && keep[run.length - 2]) keep[run.length - 1] = true;
  return keepWithGaps(run, keep, LOG_REPEAT_WHAT);
}

function foldRun(run: readonly string[], log: boolean): string[] {
  if (run.length < MIN_RUN || run[0].trim() === "") return [...run];
  if (run.every((line) => line === run[0])) return foldIdentical(run);
  if (isProgressRun(run)) {
    return [
      run[0],
      `… [rtk: ${run.length - 2} progress lines omitted, only the progress figures advanced]`,
      run[run.length - 1],
    ];
  }
  return log ? foldLogRun(run) : foldIdentical(run);
}

/**
 * Folds what is redundant in consecutive lines of one shape, and nothing else: byte-identical repeats
 * (any output), progress lines where only a percentage or counter advanced (any output), and in a log
 * (`log`) lines that repeat a kept line apart from its timestamp. A line that breaks a pattern (another
 * status, id, count, duration, path or word) is always kept, and every drop is marked. Folding its own
 * output again changes nothing.
 */
export function foldRepeats(lines: readonly string[], log: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < lines.length) {
    const shape = shapeOf(lines[start], log);
    let end = start + 1;
    while (end < lines.length && shapeOf(lines[end], log) === shape) end++;
    out.push(...foldRun(lines.slice(start, end), log));
    start = end;
  }
  return out;
}

/** Logs: repeats (timestamps aside) and progress lines fold into marked counts; every other line stays. */
export const repetitiveLogFilter: RtkFilter = {
  name: "repetitive_log",
  detect(lines) {
    return lines.length >= 20 && looksLikeLog(lines);
  },
  apply(lines) {
    return foldRepeats(lines, true);
  },
};
