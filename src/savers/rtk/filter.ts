/** One RTK filter: recognises one kind of tool output and shortens it. */
export interface RtkFilter {
  readonly name: string;
  /** True when `lines` look like this kind of output. */
  detect(lines: readonly string[]): boolean;
  /** The shortened lines; error-looking lines always survive. */
  apply(lines: readonly string[]): string[];
  /**
   * Whether generic truncation may shorten the result further. False for outputs whose every line
   * carries meaning the filter promised to keep (grep file paths, diff changes, build diagnostics).
   */
  readonly truncatable: boolean;
}

/** Non-empty lines, for detectors that measure shares of the output. */
export function nonEmpty(lines: readonly string[]): string[] {
  return lines.filter((line) => line.trim() !== "");
}
