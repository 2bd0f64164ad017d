/**
 * The log folding RTK did before it learned that numbers are values (commit 1b0cc6a,
 * src/savers/rtk/repetitive_log.ts), kept here only so that a test can show the information measure
 * catching what it dropped: in a log, consecutive lines that differed only in numbers kept their first
 * and last line, so a `status=500` among `status=200` lines or a run of order ids disappeared.
 */

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const TIME = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
const NUMBER = /(?<![\w.\-/])\d+(?:\.\d+)?(?:ms|us|µs|ns|s|%|[kKMG]i?B)?(?![\w/])/g;
const LOG_SIGNALS = /\d{1,2}:\d{2}:\d{2}|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR)\b/;
const ERROR =
  /(?:error|exception)s?\b|\b(?:fail|fails|failed|failing|failure|fatal|panic|panicked|traceback)\b/i;

function key(line: string): string {
  if (ERROR.test(line)) return `=${line}`;
  return `~${line.replace(TIMESTAMP, "<ts>").replace(TIME, "<t>").replace(NUMBER, "<n>")}`;
}

/** The old fold of a log's lines: each run of 3+ lines with one key became first, marker, last. */
export function oldLogFold(text: string): string {
  const lines = text.split("\n");
  if (!LOG_SIGNALS.test(lines.slice(0, 40).join("\n").slice(0, 1024))) return text;
  const out: string[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start + 1;
    while (end < lines.length && key(lines[end]) === key(lines[start])) end++;
    const length = end - start;
    const exact = lines.slice(start, end).every((line) => line === lines[start]);
    if (length < 3 || lines[start].trim() === "") out.push(...lines.slice(start, end));
    else if (exact) out.push(lines[start], `… [rtk: the line above repeated ${length - 1} more times]`);
    else {
      out.push(
        lines[start],
        `… [rtk: ${length - 2} similar lines omitted, only numbers or timestamps differ]`,
      );
      out.push(lines[end - 1]);
    }
    start = end;
  }
  return out.join("\n");
}
