import { isErrorLine } from "./error_lines.ts";

const VALUE = /\d+(?:\.\d+)?/g;

type Kind = "percent" | "counter" | "size" | "other";

interface Value {
  readonly number: number;
  readonly kind: Kind;
}

// What a number is, from what stands around it: `45%`, the 450 of `450/1000`, `12.3 MB`. Only these
// may advance in a progress line; any other number that changes (an id, a test case, an attempt
// against a fixed total's denominator) makes the lines information, not progress.
function kindAt(line: string, start: number, end: number): Kind {
  const after = line.slice(end, end + 6);
  if (/^\s?%/.test(after)) return "percent";
  if (/^\/\d/.test(after) && !/[\w.\/]$/.test(line.slice(0, start))) return "counter";
  if (/^\s?(?:[kKMGT]i?B|B\b|bytes\b)/.test(after)) return "size";
  return "other";
}

function values(line: string): Value[] {
  const out: Value[] = [];
  for (const match of line.matchAll(VALUE)) {
    const start = match.index ?? 0;
    out.push({ number: Number(match[0]), kind: kindAt(line, start, start + match[0].length) });
  }
  return out;
}

/**
 * True when consecutive lines of one shape are progress chatter: every line shows a percentage, and the
 * only numbers that change are percentages, `done/total` counters and byte sizes, none of them going
 * back (`Receiving objects:  45% (450/1000)` printed once per step by a tool that is not on a terminal).
 * Such a run says nothing but its first and last line; no error line is ever progress.
 */
export function isProgressRun(run: readonly string[]): boolean {
  if (run.length < 3 || run.some(isErrorLine)) return false;
  const rows = run.map(values);
  const width = rows[0].length;
  if (rows.some((row) => row.length !== width || !row.some((value) => value.kind === "percent"))) {
    return false;
  }
  let advances = false;
  for (let j = 0; j < width; j++) {
    let varies = false;
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1][j];
      const cur = rows[i][j];
      if (cur.kind !== prev.kind) return false;
      if (cur.number === prev.number) continue;
      if (cur.kind === "other" || cur.number < prev.number) return false;
      varies = true;
    }
    if (varies && rows[0][j].kind === "percent") advances = true;
  }
  return advances;
}
