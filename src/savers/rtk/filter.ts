/**
 * One RTK filter: recognises one kind of tool output and shortens it. A filter may only drop what is
 * redundant (repeats, columns that say the same on every row, known progress/download chatter) or
 * restate lines more compactly; every other line's information survives, and every drop is marked.
 */
export interface RtkFilter {
  readonly name: string;
  /** True when `lines` look like this kind of output. */
  detect(lines: readonly string[]): boolean;
  /** The shortened lines. */
  apply(lines: readonly string[]): string[];
}

/** Non-empty lines, for detectors that measure shares of the output. */
export function nonEmpty(lines: readonly string[]): string[] {
  return lines.filter((line) => line.trim() !== "");
}
