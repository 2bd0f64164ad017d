// Dates and clock times in the forms logs print them: ISO 8601 (`2026-11-25T14:00:01.123Z`),
// `2026/11/25 14:00:01`, the access-log `25/Nov/2026:14:00:01 +0000` (Python's `25/Nov/2026 14:00:01`),
// and a bare `14:00:01.123`. Nothing else counts as volatile: ids, counts and durations are values.
const TIMESTAMPS: readonly RegExp[] = [
  /\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
  /\d{1,2}\/[A-Z][a-z]{2}\/\d{4}[: ]\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?/g,
  /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
];

const LEVEL = /\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL)\b/;

/** The line with every date-and-time stamp replaced by `<ts>`. */
export function maskTimestamps(line: string): string {
  let out = line;
  for (const pattern of TIMESTAMPS) out = out.replace(pattern, "<ts>");
  return out;
}

/**
 * True when the output is a log: at least half of its first 200 non-blank lines carry a timestamp or a
 * level. Only in a log is a timestamp the time a line was printed rather than data, so only there may
 * lines that differ in nothing else fold; a source file or a CSV that happens to hold a few timestamps
 * (test fixtures, data rows) stays whole.
 */
export function looksLikeLog(lines: readonly string[]): boolean {
  let filled = 0;
  let stamped = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (maskTimestamps(line) !== line || LEVEL.test(line)) stamped++;
    if (++filled >= 200) break;
  }
  return filled > 0 && stamped * 2 >= filled;
}
