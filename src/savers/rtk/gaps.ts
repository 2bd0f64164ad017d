/**
 * The line that stands for `count` removed lines. Every elision RTK makes is marked with one of these,
 * so the model (and a person reading the request log) can tell that something was left out and what.
 */
export function omittedMarker(count: number, what = "lines"): string {
  return `… [rtk: ${count} ${what} omitted]`;
}

/** Keeps the flagged lines in order and puts one marker line where each run of others was. */
export function keepWithGaps(lines: readonly string[], keep: readonly boolean[], what = "lines"): string[] {
  const out: string[] = [];
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      if (gap > 0) out.push(omittedMarker(gap, what));
      gap = 0;
      out.push(lines[i]);
    } else gap++;
  }
  if (gap > 0) out.push(omittedMarker(gap, what));
  return out;
}
